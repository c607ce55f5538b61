/// Everything a ``Broadcaster`` knows, behind its one lock
/// (``StorageLock``): the weak table, the per-protocol indexes derived from
/// it, what deliveries learned about conformances, the sticky broadcasts,
/// and the event streams to end.
///
/// Its methods decide and return; they never call listener code, never take
/// another lock, and put whatever they let go of, or load from a weak
/// reference, into the critical section's ``Releases``.
struct BroadcasterStorage {
    private(set) var table = ListenerTable()
    private var indexes = ProtocolIndexes()
    private var known = KnownNonconformances()
    private(set) var sticky = StickyBroadcasts()
    /// Ends each event stream when the broadcaster goes away.
    private var streamFinishers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// Single-protocol registrations stopped while their listener lives (for
    /// diagnostics only).
    private(set) var stoppedRegistrations = StoppedRegistrations()

    /// Registers `entry`; returns false if the same live object was already
    /// registered under the same key (it keeps its position).
    ///
    /// The indexes take a new entry in when they are next used, with one
    /// exception: a listener registered on an actor from code where a cast
    /// for that actor is definitive (its thread or task) is taken in by every
    /// existing index at once. An index that took it in later, from a
    /// background broadcast, could not tell whether it conforms, and would
    /// count and schedule a call for it until the actor settled that.
    ///
    /// - Returns: Whether it was added, and (for the debug-build check) the
    ///   entries each index considered now.
    mutating func add(
        _ entry: ListenerEntry, in context: inout DeliveryContext, releasing releases: inout Releases
    ) -> (added: Bool, considered: [ConsideredEntries]) {
        guard table.add(entry, releasing: &releases) else { return (false, []) }
        guard let actor = entry.isolation, !indexes.isEmpty, context.castsAreDefinitive(on: actor) else {
            return (true, [])
        }
        var considered: [ConsideredEntries] = []
        for index in indexes.all {
            let entries = index.update(from: table, knowing: &known, in: &context, releasing: &releases)
            considered.append(ConsideredEntries(protocolType: index.protocolType, entries: entries))
        }
        return (true, considered)
    }

    /// Unregisters the entry for `key`; returns it, or nil if there was none
    /// (or, with `expected`, if the entry is another one).
    mutating func remove(
        _ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil, releasing releases: inout Releases
    ) -> ListenerEntry? {
        guard let entry = table.remove(key, ifEntryIs: expected, releasing: &releases) else { return nil }
        for index in indexes.all { index.noteRetired(entry, releasing: &releases) }
        return entry
    }

    /// The members of `P`'s index in step with the table, decided in
    /// `context`, and the entries it considered now.
    mutating func members<P>(
        of _: P.Type, in context: inout DeliveryContext, releasing releases: inout Releases
    ) -> (members: [ListenerEntry], considered: ArraySlice<ListenerEntry?>) {
        let index = indexes.index(for: P.self)
        let considered = index.update(from: table, as: P.self, knowing: &known, in: &context, releasing: &releases)
        return (index.members, considered)
    }

    /// Records what a delivery on `actor` found: `type`'s listeners
    /// registered there are not `P`s.
    ///
    /// `P`'s index is rebuilt without them when next used.
    mutating func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type, on actor: any Actor) {
        guard known.insert(type, P.self, on: actor) else { return }
        indexes.existingIndex(for: P.self)?.invalidate()
    }

    /// What diagnostics may read: the nonconformances learned so far.
    var knownNonconformances: KnownNonconformances { known }

    /// Whether `P`'s index exists and has considered `entry` (it lists it
    /// or has decided not to), and if so whether it lists it: for
    /// diagnostics, which must not build an index.
    func indexMembership<P>(of entry: ListenerEntry, in _: P.Type) -> Bool? {
        guard let index = indexes.existingIndex(for: P.self), index.hasConsidered(entry, in: table) else {
            return nil
        }
        return index.members.contains { $0 === entry }
    }

    @discardableResult
    mutating func setSticky(_ broadcast: StickyBroadcast, releasing releases: inout Releases) -> StickyGeneration {
        sticky.set(broadcast, releasing: &releases)
    }

    @discardableResult
    mutating func clearSticky(
        for protocolID: ObjectIdentifier, ifStill expected: UInt64? = nil, releasing releases: inout Releases
    ) -> StickyBroadcast? {
        sticky.clear(for: protocolID, ifStill: expected, releasing: &releases)
    }

    mutating func clearAllSticky(releasing releases: inout Releases) -> [StickyBroadcast] {
        sticky.clearAll(releasing: &releases)
    }

    /// Remembers a stopped single-protocol registration, for diagnostics.
    mutating func noteStopped(_ entry: ListenerEntry, releasing releases: inout Releases) {
        stoppedRegistrations.note(entry, releasing: &releases)
    }

    mutating func addStreamFinisher(for id: ObjectIdentifier, _ finish: @escaping @Sendable () -> Void) {
        streamFinishers[id] = finish
    }

    mutating func removeStreamFinisher(for id: ObjectIdentifier, releasing releases: inout Releases) {
        if let finish = streamFinishers.removeValue(forKey: id) { releases.keep(finish) }
    }

    mutating func takeStreamFinishers() -> [@Sendable () -> Void] {
        defer { streamFinishers.removeAll() }
        return Array(streamFinishers.values)
    }
}

/// The entries one protocol's index considered in one update, for the
/// debug-build isolated-conformance check, which runs after the lock is
/// released.
struct ConsideredEntries: Sendable {
    let protocolType: Any.Type
    let entries: ArraySlice<ListenerEntry?>
}

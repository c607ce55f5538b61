/// Everything a ``Broadcaster`` knows, behind its one lock: the weak table, the
/// per-protocol indexes derived from it, and what deliveries on actors have
/// learned about conformances.
///
/// Methods here run under the lock and never call listener code.
struct BroadcasterStorage {
    private(set) var table = ListenerTable()
    private var indexes: [ObjectIdentifier: any AnyConformanceIndex] = [:]
    private var conformances = ConformanceCache()
    /// The latest sticky broadcast per protocol, oldest first.
    private(set) var stickyBroadcasts: [StickyBroadcast] = []
    /// Ends each event stream when the broadcaster goes away.
    private var streamFinishers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// Single-protocol registrations stopped while their listener lives (for
    /// diagnostics only).
    private(set) var stoppedRegistrations = StoppedRegistrations()

    /// Registers `entry`; returns false if the same live object was already
    /// registered under the same key (it keeps its position).
    mutating func add(_ entry: ListenerEntry, in context: inout DeliveryContext) -> Bool {
        switch table.add(entry) {
        case .alreadyPresent:
            return false
        case .appended(let invalidatesIndexes):
            if invalidatesIndexes {
                indexes.removeAll(keepingCapacity: true)
            } else {
                for index in indexes.values { index.admit(entry, cache: &conformances, in: &context) }
            }
            return true
        }
    }

    /// Registers `entry` as if from non-isolated code.
    mutating func add(_ entry: ListenerEntry) -> Bool {
        var context = DeliveryContext(isolation: nil)
        return add(entry, in: &context)
    }

    /// Unregisters the entry for `key`; returns it, or nil if there was none.
    ///
    /// - Parameters:
    ///   - key: The registration to remove.
    ///   - expected: If given, the entry is removed only if it is this one.
    ///     Owners that hold their listener weakly pass it, because once that
    ///     listener is gone its address may identify a new object.
    /// - Returns: The removed entry, or nil.
    mutating func remove(_ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil) -> ListenerEntry? {
        guard let (entry, invalidatesIndexes) = table.remove(key, ifEntryIs: expected) else { return nil }
        if invalidatesIndexes {
            indexes.removeAll(keepingCapacity: true)
        } else {
            for index in indexes.values { index.noteRetired(entry) }
        }
        return entry
    }

    /// The members of `P`'s index, building it on first use.
    mutating func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [IndexMember] {
        let key = ObjectIdentifier(P.self)
        if let index = indexes[key] {
            // The key is `P`'s identity, so the index is a ConformanceIndex<P>.
            return unsafeDowncast(index, to: ConformanceIndex<P>.self).members
        }
        let index = ConformanceIndex<P>(entries: table.liveEntries, cache: &conformances, in: &context)
        indexes[key] = index
        return index.members
    }

    /// The members a broadcast to `P` made in `context` would take, without
    /// storing anything: `P`'s index if it exists, else the index a broadcast
    /// would build now, built on a copy of the conformance cache and thrown
    /// away (for diagnostics, which must not change what later broadcasts do).
    func membersWithoutBuilding<P>(of _: P.Type, in context: inout DeliveryContext) -> [IndexMember] {
        if let index = indexes[ObjectIdentifier(P.self)] {
            return unsafeDowncast(index, to: ConformanceIndex<P>.self).members
        }
        var cache = conformances
        return ConformanceIndex<P>(entries: table.liveEntries, cache: &cache, in: &context).members
    }

    /// Remembers a stopped single-protocol registration, for diagnostics.
    mutating func noteStopped(_ entry: ListenerEntry) {
        stoppedRegistrations.note(entry)
    }

    /// The members of `P`'s index, building it as if from non-isolated code.
    mutating func members<P>(of _: P.Type) -> [IndexMember] {
        var context = DeliveryContext(isolation: nil)
        return members(of: P.self, in: &context)
    }

    /// Records that `type` does not conform to `P`, learned by a delivery on the
    /// listener's actor, and drops `P`'s index so it is rebuilt without it.
    mutating func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type) {
        guard conformances.conforms(type, to: P.self) != false else { return }
        conformances.record(type, conformsTo: P.self, false)
        indexes[ObjectIdentifier(P.self)] = nil
    }

    /// Keeps `sticky` as the latest for its protocol, replacing the previous
    /// one; it moves to the end so replays follow broadcast order.
    mutating func setStickyBroadcast(_ sticky: StickyBroadcast) {
        stickyBroadcasts.removeAll { $0.protocolID == sticky.protocolID }
        stickyBroadcasts.append(sticky)
    }

    mutating func clearStickyBroadcast(for protocolID: ObjectIdentifier) {
        stickyBroadcasts.removeAll { $0.protocolID == protocolID }
    }

    mutating func removeAllStickyBroadcasts() {
        stickyBroadcasts.removeAll()
    }

    func hasStickyBroadcast(for protocolID: ObjectIdentifier) -> Bool {
        stickyBroadcasts.contains { $0.protocolID == protocolID }
    }

    mutating func addStreamFinisher(for id: ObjectIdentifier, _ finish: @escaping @Sendable () -> Void) {
        streamFinishers[id] = finish
    }

    mutating func removeStreamFinisher(for id: ObjectIdentifier) {
        streamFinishers[id] = nil
    }

    mutating func takeStreamFinishers() -> [@Sendable () -> Void] {
        defer { streamFinishers.removeAll() }
        return Array(streamFinishers.values)
    }
}

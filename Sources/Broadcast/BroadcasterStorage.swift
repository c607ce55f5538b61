/// Everything a ``Broadcaster`` knows, behind its one lock: the weak table, the
/// per-protocol indexes derived from it, and what deliveries on actors have
/// learned about conformances.
///
/// Methods here run under the lock and never call listener code.
struct BroadcasterStorage {
    private(set) var table = ListenerTable()
    private var indexes: [ObjectIdentifier: any AnyConformanceIndex] = [:]
    /// The index the latest broadcast used, and its key.
    ///
    /// Checked before `indexes`, because hashing the key cost more than a fifth of a
    /// broadcast to one listener (callgrind, Docs/PerformanceNotes.md) and
    /// broadcasts often repeat a protocol. Always also in `indexes`; cleared
    /// with it.
    private var lastIndexKey: ObjectIdentifier?
    private var lastIndex: AnyObject?
    private var conformances = ConformanceCache()
    /// The latest sticky broadcast per protocol, oldest first.
    private(set) var stickyBroadcasts: [StickyBroadcast] = []
    /// Ends each event stream when the broadcaster goes away.
    private var streamFinishers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// Single-protocol registrations stopped while their listener lives (for
    /// diagnostics only).
    private(set) var stoppedRegistrations = StoppedRegistrations()
    #if DEBUG
        /// Debug builds only: finds listeners whose conformance is isolated
        /// to the main actor but that registered elsewhere.
        var isolatedConformanceCheck: IsolatedConformanceCheck?
    #endif

    /// Registers `entry`; returns false if the same live object was already
    /// registered under the same key (it keeps its position).
    ///
    /// The indexes are not touched: each takes in the entries appended since
    /// it was last used when a broadcast (or a query) next uses it, in one
    /// pass. Testing every new entry against every index here was a fifth of
    /// an add (callgrind, Docs/PerformanceNotes.md), paid even for protocols
    /// never broadcast again.
    ///
    /// One thing is decided at once: a listener registered on an actor, from
    /// code where a conformance isolated to that actor can be checked (the
    /// main thread, or a task on that actor), has its class's conformance to
    /// each indexed protocol recorded in the ``ConformanceCache``. The index
    /// may take the entry in later, from a background broadcast where a
    /// failed cast proves nothing; the recorded answer keeps that broadcast
    /// from counting or scheduling a listener the registration could already
    /// tell does not conform. One cast per class and protocol, then a lookup.
    mutating func add(_ entry: ListenerEntry, in context: inout DeliveryContext) -> Bool {
        switch table.add(entry) {
        case .alreadyPresent:
            return false
        case .appended(let invalidatesIndexes):
            // The box, not `isolation`: a nil check, where reading the
            // existential cost a non-isolated add 29 instructions (callgrind).
            if entry.isolationBox != nil { settleConformances(of: entry, in: &context) }
            if invalidatesIndexes { dropIndexes() }
            return true
        }
    }

    /// Records `entry`'s conformance to every indexed protocol, if it has an
    /// actor and `context` can check conformances isolated to it.
    @inline(never)
    private mutating func settleConformances(of entry: ListenerEntry, in context: inout DeliveryContext) {
        guard !indexes.isEmpty, let actor = entry.isolation, let object = entry.liveObject,
            context.castsAreDefinitive(on: actor)
        else { return }
        for index in indexes.values { index.settleConformance(of: object, cache: &conformances) }
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
            dropIndexes()
        } else {
            for index in indexes.values { index.noteRetired(entry) }
        }
        return entry
    }

    /// The members of the index the latest broadcast used, if its protocol's
    /// identity is `key`: the common case, without generic code.
    ///
    /// Nil also when entries were appended since the index was last used:
    /// ``members(of:in:)`` takes them in.
    func latestMembers(for key: ObjectIdentifier) -> [IndexMember]? {
        guard lastIndexKey == key, let lastIndex else { return nil }
        let index = unsafeDowncast(lastIndex, to: IndexMembers.self)
        guard index.seenEntries == table.storageCount else { return nil }
        return index.members
    }

    /// The members of `P`'s index, building it on first use.
    mutating func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [IndexMember] {
        let key = ObjectIdentifier(P.self)
        #if DEBUG
            // Where this call's take-in starts, for the isolated-conformance
            // check: an existing index has seen a prefix, a new one nothing.
            let firstUnchecked = indexes[key].map { ($0 as? IndexMembers)?.seenEntries ?? 0 } ?? 0
        #endif
        // Either way the key is `P`'s identity, so the index is a
        // ConformanceIndex<P>.
        let index: ConformanceIndex<P>
        if lastIndexKey == key, let lastIndex {
            index = unsafeDowncast(lastIndex, to: ConformanceIndex<P>.self)
        } else if let existing = indexes[key] {
            index = unsafeDowncast(existing, to: ConformanceIndex<P>.self)
        } else {
            index = ConformanceIndex<P>(entries: table.entries, cache: &conformances, in: &context)
            indexes[key] = index
        }
        lastIndexKey = key
        lastIndex = index
        index.takeIn(table.entries, cache: &conformances, in: &context)
        #if DEBUG
            isolatedConformanceCheck?.noteTakenIn(table.entries[firstUnchecked...], as: P.self, in: &context)
        #endif
        return index.members
    }

    /// The members a broadcast to `P` made in `context` would take, without
    /// storing anything: `P`'s index with the entries it would take in now,
    /// or the index a broadcast would build now, each computed on a copy of
    /// the conformance cache and thrown away (for diagnostics, which must not
    /// change what later broadcasts do).
    func membersWithoutBuilding<P>(of _: P.Type, in context: inout DeliveryContext) -> [IndexMember] {
        var cache = conformances
        if let index = indexes[ObjectIdentifier(P.self)] {
            return unsafeDowncast(index, to: ConformanceIndex<P>.self)
                .membersTakingIn(table.entries, cache: &cache, in: &context)
        }
        return ConformanceIndex<P>(entries: table.entries, cache: &cache, in: &context).members
    }

    /// Remembers a stopped single-protocol registration, for diagnostics.
    mutating func noteStopped(_ entry: ListenerEntry) {
        stoppedRegistrations.note(entry)
    }

    /// Drops every index; the next broadcast to each protocol rebuilds it.
    private mutating func dropIndexes() {
        indexes.removeAll(keepingCapacity: true)
        lastIndexKey = nil
        lastIndex = nil
    }

    /// The members of `P`'s index, building it as if from non-isolated code.
    mutating func members<P>(of _: P.Type) -> [IndexMember] {
        var context = DeliveryContext(isolation: nil)
        return members(of: P.self, in: &context)
    }

    /// Gives `P`'s index the projections that scheduled calls on the main
    /// actor learned (see ``LearnedProjections``).
    mutating func adopt<P>(_ learned: LearnedProjections, to _: P.Type) {
        guard let index = indexes[ObjectIdentifier(P.self)] else { return }
        // The key is `P`'s identity, so the index is a ConformanceIndex<P>.
        unsafeDowncast(index, to: ConformanceIndex<P>.self).adopt(learned)
    }

    /// Records that `type` does not conform to `P`, learned by a delivery on the
    /// listener's actor, and drops `P`'s index so it is rebuilt without it.
    mutating func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type) {
        guard conformances.conforms(type, to: P.self) != false else { return }
        conformances.record(type, conformsTo: P.self, false)
        let key = ObjectIdentifier(P.self)
        indexes[key] = nil
        if lastIndexKey == key {
            lastIndexKey = nil
            lastIndex = nil
        }
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

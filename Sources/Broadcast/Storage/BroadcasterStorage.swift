import Synchronization

/// What a critical section let go of, or loaded from a weak reference,
/// released after the lock: it may hold the last reference to an object
/// whose `deinit` calls back.
struct Releases: @unchecked Sendable {
    // @unchecked Sendable: the values are never read, called or mutated through
    // this type; the thread that ran the critical section only lets go of them.
    private var values: [Any] = []

    mutating func keep(_ value: Any) {
        values.append(value)
    }

    var count: Int { values.count }
}

/// Everything a ``Broadcaster`` knows, behind its ``StorageLock``; its methods
/// return what the caller must do after the lock.
struct BroadcasterStorage {
    private(set) var table = ListenerTable()
    private(set) var indexes = ProtocolIndexes()
    private(set) var known = KnownNonconformances()
    private(set) var sticky = StickyBroadcasts()
    private var streamFinishers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// For diagnostics only.
    private(set) var stoppedRegistrations = StoppedRegistrations()
    #if DEBUG
        /// Debug builds: what ``StorageLock/callAfterEachTrip(_:)`` installed.
        var seam: (@Sendable (StaticString) -> Void)?
    #endif

    // MARK: - Registering

    /// Adds `entry`; the sticky broadcasts it listens to are read here, so
    /// that each reaches it exactly once, replayed or live.
    mutating func add(
        _ entry: ListenerEntry, receivingSticky: Bool, releasing releases: inout Releases
    ) -> RegistrationPlan {
        guard table.add(entry, releasing: &releases) else { return RegistrationPlan() }
        let settles = entry.isolationBox != nil && !indexes.all.isEmpty
        return RegistrationPlan(
            added: true,
            replays: receivingSticky ? sticky.all.filter { entry.listens(to: $0.protocolID) } : [],
            protocolsToSettle: settles ? indexes.all.map(\.protocolType) : [], known: settles ? known : .init())
    }

    /// Records what a registration proved; an index that took the entry in is rebuilt.
    mutating func settle(_ entry: ListenerEntry, proving learned: [(LearnedNonconformance, ObjectIdentifier)]) {
        for (nonconformance, protocolID) in learned
        where known.insert(nonconformance.type, protocolID, on: nonconformance.actor) {
            guard let position = indexes.existingPosition(for: protocolID), let slot = table.slot(of: entry),
                indexes[position].hasConsidered(slot: slot, in: table)
            else { continue }
            indexes[position].invalidate()
        }
    }

    mutating func remove(
        _ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil, releasing releases: inout Releases
    ) -> ListenerEntry? {
        guard let entry = table.remove(key, ifEntryIs: expected, releasing: &releases) else { return nil }
        for position in indexes.all.indices { indexes[position].noteRetired(entry, releasing: &releases) }
        return entry
    }

    // MARK: - Broadcasting

    mutating func members(of protocolType: Any.Type, singling: Bool = false) -> Members {
        let position = indexes.position(for: protocolType)
        if let members = indexes.members(at: position, atRevision: table.revision, singling: singling) {
            return members
        }
        return indexes[position].intake(from: table, at: position, knowing: known)
    }

    mutating func commit(
        _ intake: IndexIntake, admitting admitted: [ListenerEntry], learned: [LearnedNonconformance],
        releasing releases: inout Releases
    ) {
        var learnedNew = false
        for nonconformance in learned
        where known.insert(nonconformance.type, intake.protocolID, on: nonconformance.actor) {
            learnedNew = true
        }
        let committed = indexes[intake.position].commit(intake, admitting: admitted, in: table, releasing: &releases)
        if !committed, learnedNew { indexes[intake.position].invalidate() }
    }

    /// Records what a delivery on `actor` proved; `P`'s index is rebuilt.
    mutating func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type, on actor: any Actor) {
        guard known.insert(type, ObjectIdentifier(P.self), on: actor),
            let position = indexes.existingPosition(for: ObjectIdentifier(P.self))
        else { return }
        indexes[position].invalidate()
    }

    // MARK: - Sticky broadcasts and streams

    mutating func setSticky(_ broadcast: StickyBroadcast, releasing releases: inout Releases) -> StickyGeneration {
        sticky.set(broadcast, releasing: &releases)
    }

    @discardableResult
    mutating func clearSticky(
        for protocolID: ObjectIdentifier, ifStill expected: UInt64? = nil, releasing releases: inout Releases
    ) -> StickyBroadcast? {
        sticky.clear(for: protocolID, ifStill: expected, releasing: &releases)
    }

    /// Clears the state of `generation` for the sticky call made through
    /// `entry`, in the critical section that sees whether `entry` is still
    /// registered: an unregistering retires it under this lock.
    mutating func takeSticky(
        _ generation: StickyGeneration, callingThrough entry: ListenerEntry, releasing releases: inout Releases
    ) -> StickyBroadcast? {
        guard !entry.isRetired else { return nil }
        return sticky.clear(for: generation.protocolID, ifStill: generation.number, releasing: &releases)
    }

    mutating func clearAllSticky(releasing releases: inout Releases) -> [StickyBroadcast] {
        sticky.clearAll(releasing: &releases)
    }

    mutating func noteStopped(_ entry: ListenerEntry, releasing releases: inout Releases) {
        stoppedRegistrations.note(entry, releasing: &releases)
    }

    mutating func addStreamFinisher(
        for id: ObjectIdentifier, _ finish: @escaping @Sendable () -> Void, releasing releases: inout Releases
    ) {
        if let replaced = streamFinishers.updateValue(finish, forKey: id) { releases.keep(replaced) }
    }

    mutating func removeStreamFinisher(for id: ObjectIdentifier, releasing releases: inout Releases) {
        if let finish = streamFinishers.removeValue(forKey: id) { releases.keep(finish) }
    }

    mutating func takeStreamFinishers() -> [@Sendable () -> Void] {
        defer { streamFinishers.removeAll() }
        return Array(streamFinishers.values)
    }
}

/// What a registration does after the lock.
struct RegistrationPlan: Sendable {
    var added = false
    var replays: [StickyBroadcast] = []
    /// For an entry of an actor: the indexes' protocols, to settle its class for.
    var protocolsToSettle: [Any.Type] = []
    var known = KnownNonconformances()
}

/// The latest sticky broadcast per protocol, oldest first, so that replays
/// follow broadcast order.
struct StickyBroadcasts {
    private(set) var all: [StickyBroadcast] = []
    /// The generation of the latest change (recorded or cleared) of any
    /// broadcaster: generations are numbered across broadcasters, so that a
    /// state read from one never matches another's.
    private static let recorded = Atomic<UInt64>(0)
    /// The generation of each protocol's latest change, so that a reader
    /// can tell whether a state it saw was replaced or cleared since.
    private var changes: [ObjectIdentifier: UInt64] = [:]

    /// Keeps `sticky` as the latest for its protocol, replacing the previous
    /// one; it moves to the end.
    ///
    /// - Returns: Its generation: newer than every sticky broadcast recorded
    ///   before it.
    mutating func set(_ sticky: StickyBroadcast, releasing releases: inout Releases) -> StickyGeneration {
        if let index = all.firstIndex(where: { $0.protocolID == sticky.protocolID }) {
            releases.keep(all.remove(at: index))
        }
        var sticky = sticky
        sticky.number(nextGeneration(for: sticky.protocolID))
        all.append(sticky)
        return sticky.generation
    }

    /// Forgets the sticky broadcast to `protocolID`, if there is one and, when
    /// `expected` is given, if it is still that generation.
    ///
    /// - Returns: What was forgotten (also kept in `releases`); nil if
    ///   nothing was.
    @discardableResult
    mutating func clear(
        for protocolID: ObjectIdentifier, ifStill expected: UInt64? = nil, releasing releases: inout Releases
    ) -> StickyBroadcast? {
        guard let index = all.firstIndex(where: { $0.protocolID == protocolID }),
            expected == nil || all[index].generation.number == expected
        else { return nil }
        _ = nextGeneration(for: protocolID)
        let cleared = all.remove(at: index)
        releases.keep(cleared)
        return cleared
    }

    /// Forgets every sticky broadcast; returns them (also kept in `releases`).
    mutating func clearAll(releasing releases: inout Releases) -> [StickyBroadcast] {
        let cleared = all
        for sticky in cleared { _ = nextGeneration(for: sticky.protocolID) }
        releases.keep(cleared)
        all = []
        return cleared
    }

    /// The latest sticky broadcast to `protocolID` and the generation of
    /// `protocolID`'s latest change (0 if it never had one).
    ///
    /// The generation is read only with its state: apart, a state could be paired with a newer
    /// change's generation, and a reader keeping the newest would then keep it.
    func snapshot(for protocolID: ObjectIdentifier) -> (latest: StickyBroadcast?, change: UInt64) {
        (latest(for: protocolID), changes[protocolID] ?? 0)
    }

    /// A new generation, newer than every one given before by any
    /// broadcaster, as the latest change of `protocolID`.
    private mutating func nextGeneration(for protocolID: ObjectIdentifier) -> UInt64 {
        let next = Self.recorded.wrappingAdd(1, ordering: .relaxed).newValue
        changes[protocolID] = next
        return next
    }

    func latest(for protocolID: ObjectIdentifier) -> StickyBroadcast? {
        all.last { $0.protocolID == protocolID }
    }
}

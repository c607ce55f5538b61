import Synchronization

/// The broadcaster's one lock over its ``BroadcasterStorage``, and the only
/// code that opens it.
///
/// The lock and `withLock` are private: every critical section is one of the
/// methods below, one trip through the lock, and an operation that must be
/// atomic is one call to one of them. Each decides under the lock and
/// returns what the caller does once it is released (the members to call, a
/// registration's plan, a state taken); what it lets go of is released after
/// unlocking, since it may hold the last reference to an object whose
/// `deinit` calls back.
final class StorageLock: Sendable {
    private let mutex = Mutex(BroadcasterStorage())

    /// One critical section, named `section` for the tests' seam.
    private func withLock<Result: Sendable>(
        _ section: StaticString = #function, _ body: (inout BroadcasterStorage, inout Releases) -> Result
    ) -> Result {
        #if DEBUG
            let (result, releases, seam) = mutex.withLock { storage in
                var releases = Releases()
                let result = body(&storage, &releases)
                return (result, releases, storage.seam)
            }
            _ = consume releases
            seam?(section)
            return result
        #else
            let (result, releases) = mutex.withLock { storage in
                var releases = Releases()
                let result = body(&storage, &releases)
                return (result, releases)
            }
            _ = consume releases
            return result
        #endif
    }

    // MARK: - Broadcasting

    /// A broadcast's one trip through the lock, which lets go of nothing.
    @inline(__always)
    func members(of protocolType: Any.Type, singling: Bool = false) -> Members {
        #if DEBUG
            let (members, seam) = mutex.withLock { ($0.members(of: protocolType, singling: singling), $0.seam) }
            seam?("members(of:singling:)")
            return members
        #else
            mutex.withLock { $0.members(of: protocolType, singling: singling) }
        #endif
    }

    /// A sticky broadcast's one trip: records `sticky` in the critical section
    /// that reads the members, so that every listener is among them or
    /// registers later and is replayed it.
    func keepSticky(_ sticky: StickyBroadcast, readingMembersOf protocolType: Any.Type) -> (
        members: Members, generation: StickyGeneration
    ) {
        withLock { storage, releases in
            (storage.members(of: protocolType), storage.setSticky(sticky, releasing: &releases))
        }
    }

    /// Commits what a broadcast decided of an index's new entries with no
    /// lock held; a commit the index outdated meanwhile does not apply.
    func commit(_ intake: IndexIntake, admitting admitted: [ListenerEntry], learned: [LearnedNonconformance]) {
        withLock { storage, releases in
            storage.commit(intake, admitting: admitted, learned: learned, releasing: &releases)
        }
    }

    /// Records what deliveries proved about classes that are not a `P` on an actor.
    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        withLock { storage, _ in
            for nonconformance in learned {
                storage.recordNonconformance(of: nonconformance.type, to: P.self, on: nonconformance.actor)
            }
        }
    }

    // MARK: - Sticky state

    /// Keeps `sticky` as the latest for its protocol; returns its generation.
    @discardableResult
    func keepSticky(_ sticky: StickyBroadcast) -> StickyGeneration {
        withLock { storage, releases in storage.setSticky(sticky, releasing: &releases) }
    }

    func latestSticky(for protocolID: ObjectIdentifier) -> StickyBroadcast? {
        withLock { storage, _ in storage.sticky.latest(for: protocolID) }
    }

    /// The latest sticky broadcast to `protocolID` and the generation of its
    /// latest change (0 if it never changed), read together: a change made
    /// between two reads would pair a state with a newer change's generation.
    func stickySnapshot(for protocolID: ObjectIdentifier) -> (latest: StickyBroadcast?, change: UInt64) {
        withLock { storage, _ in storage.sticky.snapshot(for: protocolID) }
    }

    /// Reads and clears in one trip: of callers racing, one gets the state;
    /// with `expected`, only if it is still that generation.
    func clearSticky(for protocolID: ObjectIdentifier, ifStill expected: UInt64?) -> StickyBroadcast? {
        withLock { storage, releases in storage.clearSticky(for: protocolID, ifStill: expected, releasing: &releases) }
    }

    func clearAllSticky() -> [StickyBroadcast] {
        withLock { storage, releases in storage.clearAllSticky(releasing: &releases) }
    }

    /// Takes the state of `generation` for the sticky call made through
    /// `entry`; nil if the state is no longer kept or the entry was
    /// unregistered (a cancelled token, a stopped registration).
    func takeSticky(_ generation: StickyGeneration, callingThrough entry: ListenerEntry) -> StickyBroadcast? {
        withLock { storage, releases in
            storage.takeSticky(generation, callingThrough: entry, releasing: &releases)
        }
    }

    // MARK: - Registering

    /// Adds `entry`, reading in the same trip the sticky broadcasts it is
    /// replayed (so each reaches it exactly once, replayed or live).
    func add(_ entry: ListenerEntry, receivingSticky: Bool) -> RegistrationPlan {
        withLock { storage, releases in storage.add(entry, receivingSticky: receivingSticky, releasing: &releases) }
    }

    /// Records what a registration proved about its class on its actor.
    func settle(_ entry: ListenerEntry, proving learned: [(LearnedNonconformance, ObjectIdentifier)]) {
        withLock { storage, _ in storage.settle(entry, proving: learned) }
    }

    func remove(_ key: EntryKey) {
        _ = withLock { storage, releases in storage.remove(key, releasing: &releases) }
    }

    /// Removes `entry` if it is still the one registered under its key, and
    /// remembers a single-protocol registration as stopped.
    func remove(_ entry: ListenerEntry) {
        let key = EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol)
        withLock { storage, releases in
            guard storage.remove(key, ifEntryIs: entry, releasing: &releases) != nil, entry.onlyProtocol != nil else {
                return
            }
            storage.noteStopped(entry, releasing: &releases)
        }
    }

    // MARK: - Streams

    func addStreamFinisher(for id: ObjectIdentifier, _ finish: @escaping @Sendable () -> Void) {
        withLock { storage, releases in storage.addStreamFinisher(for: id, finish, releasing: &releases) }
    }

    func removeStreamFinisher(for id: ObjectIdentifier) {
        withLock { storage, releases in storage.removeStreamFinisher(for: id, releasing: &releases) }
    }

    func takeStreamFinishers() -> [@Sendable () -> Void] {
        withLock { storage, _ in storage.takeStreamFinishers() }
    }

    // MARK: - Introspection

    /// Every registered entry, in registration order, live or not.
    func registeredEntries() -> [ListenerEntry] {
        withLock { storage, _ in storage.registeredEntries }
    }

    /// The entries registered for the object `id`.
    func entries(withID id: ObjectIdentifier) -> [ListenerEntry] {
        withLock { storage, _ in storage.entries(withID: id) }
    }

    /// What `deliveryExplanation(for:to:)` reads of `P` for the object `id`,
    /// in one trip: its entries, whether `P`'s index lists each (nil if the
    /// index has yet to decide), what deliveries proved, and the listeners
    /// whose registration for `P` was stopped.
    func explanationFacts<P>(for id: ObjectIdentifier, as _: P.Type) -> ExplanationFacts {
        withLock { storage, _ in
            let entries = storage.entries(withID: id)
            return ExplanationFacts(
                entries: entries, memberships: entries.map { storage.indexMembership(of: $0, in: P.self) },
                known: storage.known,
                stopped: storage.stoppedRegistrations.listeners(stoppedFor: ObjectIdentifier(P.self)))
        }
    }

    // MARK: - The tests' seam

    #if DEBUG
        /// Debug builds, for tests: `seam` is called after each later critical
        /// section of this lock, with its name, on the thread that ran it,
        /// once the lock is released, so that a test can run a competing
        /// operation between any two trips of another (nil: none).
        ///
        /// Only in debug builds: a release build has no seam to read.
        func callAfterEachTrip(_ seam: (@Sendable (StaticString) -> Void)?) {
            withLock { storage, releases in
                if let replaced = storage.seam { releases.keep(replaced) }
                storage.seam = seam
            }
        }
    #endif
}

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
        let settles = (entry.isolationBox != nil || entry.isSettledByMainActor) && !indexes.all.isEmpty
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
    /// The indexes' protocols, to settle the entry's class for on the actor
    /// that settles it (its own; the main actor for one with no actor).
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

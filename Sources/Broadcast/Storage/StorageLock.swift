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

/// The registry's critical sections: adding and removing entries, the
/// streams' finishers, and the reads the introspection API makes. Each is
/// one trip through the lock that returns what the caller acts on after it,
/// so that the public API never opens the state itself.
extension StorageLock {
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

    func addStreamFinisher(for id: ObjectIdentifier, _ finish: @escaping @Sendable () -> Void) {
        withLock { storage, releases in storage.addStreamFinisher(for: id, finish, releasing: &releases) }
    }

    func removeStreamFinisher(for id: ObjectIdentifier) {
        withLock { storage, releases in storage.removeStreamFinisher(for: id, releasing: &releases) }
    }

    func takeStreamFinishers() -> [@Sendable () -> Void] {
        withLock { storage, _ in storage.takeStreamFinishers() }
    }

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
}

/// What ``StorageLock/explanationFacts(for:as:)`` read under the lock.
struct ExplanationFacts: Sendable {
    let entries: [ListenerEntry]
    let memberships: [Bool?]
    let known: KnownNonconformances
    let stopped: [WeakListener]
}

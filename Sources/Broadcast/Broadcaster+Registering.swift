extension Broadcaster {
    /// Adds `entry` and, if asked, replays the sticky broadcasts it matches:
    /// the one path behind every way of registering.
    ///
    /// The sticky broadcasts are read under the same lock that adds the
    /// entry, so each one reaches the listener exactly once: either it was
    /// made before (and is replayed) or after (and is delivered live). The
    /// replays are planned after the lock is released, in sticky order:
    /// those that must run on the listener's actor are enqueued first, then
    /// those that can run here are made, before this returns. A replay is
    /// not made to a listener that a newer state of its protocol reached
    /// meanwhile (``StickyProgress``).
    ///
    /// - Returns: Whether the entry was added (false if its object was
    ///   already registered under the same key).
    @discardableResult
    func register(_ entry: ListenerEntry, receivingSticky: Bool, from isolation: (any Actor)?) -> Bool {
        var context = DeliveryContext(isolation: isolation)
        let (added, replays, considered) = storage.withLock { storage, releases in
            let (added, considered) = storage.add(entry, in: &context, releasing: &releases)
            guard added, receivingSticky else { return (added, [StickyBroadcast](), considered) }
            return (added, storage.sticky.all.filter { entry.listens(to: $0.protocolID) }, considered)
        }
        for indexed in considered {
            checkIsolatedConformances(of: indexed.entries, as: indexed.protocolType, in: &context)
        }
        var callsHere: [() -> Void] = []
        for sticky in replays {
            sticky.planReplay(to: entry, by: self, in: &context, callsHere: &callsHere)
        }
        for call in callsHere { call() }
        return added
    }

    /// Unregisters the entry for `key`, if any.
    func unregister(_ key: EntryKey) {
        _ = storage.withLock { storage, releases in storage.remove(key, releasing: &releases) }
    }

    /// Unregisters `entry` if it is still the one registered under its key.
    ///
    /// A single-protocol registration that stops is remembered, so that
    /// ``deliveryExplanation(for:to:isolation:)`` can say so.
    func unregister(_ entry: ListenerEntry) {
        let key = EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol)
        storage.withLock { storage, releases in
            guard storage.remove(key, ifEntryIs: entry, releasing: &releases) != nil, entry.onlyProtocol != nil else {
                return
            }
            storage.noteStopped(entry, releasing: &releases)
        }
    }
}

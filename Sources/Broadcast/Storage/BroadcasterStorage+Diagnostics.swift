/// What diagnostics read behind the broadcaster's lock. Nothing here changes
/// what a later broadcast does.
///
/// These take identifiers, not the listener: a non-`Sendable` object passed
/// into the lock's closure would tie the storage to the caller's region.
/// Callers compare the entries' live objects with theirs (`===`) after the
/// lock is released, which also skips an entry of a dead object whose address
/// theirs now reuses.
extension BroadcasterStorage {
    /// The registered entries whose object had identifier `id` when it
    /// registered, in registration order.
    ///
    /// An `addListener` entry and started single-protocol registrations;
    /// callers check liveness after the lock.
    func entries(withID id: ObjectIdentifier) -> [ListenerEntry] {
        table.entries.compactMap { entry in
            guard let entry, entry.id == id, !entry.isRetired else { return nil }
            return entry
        }
    }

    /// Every registered entry, in registration order, dead or alive:
    /// callers check liveness after the lock.
    var registeredEntries: [ListenerEntry] {
        table.entries.compactMap { entry in
            guard let entry, !entry.isRetired else { return nil }
            return entry
        }
    }
}

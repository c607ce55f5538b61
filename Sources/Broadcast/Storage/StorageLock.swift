import Synchronization

/// The broadcaster's one lock over its ``BroadcasterStorage``: the only way
/// to read or change the storage, and the place that enforces the rule that
/// nothing of the user's is released under the lock.
///
/// The locked code decides and returns what must happen (the members to
/// call, the replays to make); the caller does it after the lock is
/// released. Whatever the locked code lets go of goes into the critical
/// section's ``Releases``, which this type drops after unlocking. Listener
/// code is never called under the lock: the storage holds no closure it
/// could call, only ``StickyBroadcast`` values, which it returns.
final class StorageLock: Sendable {
    private let mutex = Mutex(BroadcasterStorage())

    /// Runs `body` with the storage locked, then, with the lock released,
    /// lets go of what `body` put into its ``Releases``.
    func withLock<Result: Sendable>(_ body: (inout BroadcasterStorage, inout Releases) -> Result) -> Result {
        let (result, releases) = mutex.withLock { storage in
            var releases = Releases()
            let result = body(&storage, &releases)
            return (result, releases)
        }
        // The lock is released: a deinit that runs now may use the broadcaster.
        _ = consume releases
        return result
    }
}

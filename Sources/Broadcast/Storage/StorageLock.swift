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

/// What a critical section let go of: values that the locked code removed
/// from the storage, or loaded from a weak reference, carried out of the lock
/// so that they are released after it.
///
/// Any of them can hold the last reference to an object of the user's (a
/// listener, a sticky payload, an actor a listener registered from, a
/// closure's captures) whose `deinit` may call back into the broadcaster.
/// Released under the lock, that call would re-enter it. The storage's
/// methods that drop or load such values take the critical section's
/// `Releases`; ``StorageLock`` is the only way to the storage, and it drops
/// them once the lock is released.
struct Releases: @unchecked Sendable {
    // @unchecked Sendable: the values are never read, called or mutated
    // through this type; they are only carried out of the critical section
    // by the thread that ran it, which then lets go of them.
    private var values: [Any] = []

    /// Keeps `value` alive until the lock is released.
    mutating func keep(_ value: Any) {
        values.append(value)
    }

    /// The number of values kept, for tests.
    var count: Int { values.count }
}

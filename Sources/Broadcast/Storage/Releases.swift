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

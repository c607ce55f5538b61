import Synchronization

/// A value behind a `Mutex` (the lock `Broadcaster` uses), for the
/// hand-written registries, so that every implementation that can be called
/// from several threads pays the same kind of lock.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `mutex.withLock`.
    private let mutex = Mutex(())
    private var value: Value

    init(_ value: Value) { self.value = value }

    @inline(__always)
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { _ in body(&value) }
    }
}

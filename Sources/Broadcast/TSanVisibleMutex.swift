#if BROADCAST_TSAN_LOCKS
    import Foundation

    /// Replaces `Synchronization.Mutex` inside this module in ThreadSanitizer
    /// builds only (`scripts/sanitizers` passes `-DBROADCAST_TSAN_LOCKS`).
    ///
    /// Why: on Linux, `Mutex` locks with a futex in a library TSan does not
    /// instrument, so TSan sees no happens-before edge and reports every access
    /// under the lock as a race (reproduced with a ten-line program using `Mutex`
    /// alone). `NSLock` is a pthread mutex, which TSan intercepts. Release and
    /// debug builds keep `Mutex`; this type has the same shape, so no call site
    /// changes.
    final class Mutex<Value>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only read or written inside `withLock`,
        // while `lock` is held.
        private let lock = NSLock()
        private var value: Value

        init(_ initialValue: sending Value) {
            value = initialValue
        }

        func withLock<Result, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
#endif

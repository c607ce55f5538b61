import Foundation

/// A value guarded by an `NSLock`, for the tests' own bookkeeping (spies,
/// logs, stress counters).
///
/// Not `Synchronization.Mutex`: on Linux (Swift 6.3.1) its lock is a futex in
/// the uninstrumented Synchronization library, so ThreadSanitizer sees no
/// ordering between critical sections and reports every contended `withLock`
/// as a "Swift access race" (reproduced with a bare `Mutex<[Int]>` and
/// `DispatchQueue.concurrentPerform`). `NSLock` is a pthread mutex, which TSan
/// intercepts, so the tests add no false reports to the `--sanitize=thread`
/// run.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`,
    // while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

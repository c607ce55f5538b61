import Foundation

/// A lock-protected value for the reliability tests' own bookkeeping.
///
/// Not `Synchronization.Mutex`: on Linux (Swift 6.3.1) its lock is a futex in
/// the uninstrumented Synchronization library, so ThreadSanitizer sees no
/// ordering between critical sections and reports every access under it as a
/// "Swift access race" (reproduced with a bare `Mutex<[Int]>` and
/// `DispatchQueue.concurrentPerform`). `NSLock` is a pthread mutex, which
/// TSan intercepts, so the test's bookkeeping adds no false reports.
final class ReliabilityLock<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`,
    // under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

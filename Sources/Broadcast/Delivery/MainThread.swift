import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Whether code runs on the process's main thread.
///
/// On Linux, `Thread.isMainThread` makes two system calls (`getpid` and
/// `gettid`) on every question: about 250 ns here, more than a post to one
/// handler costs. The main thread's `pthread_self()` is kept the first time
/// Foundation answers yes, and compared after that: the main thread lives as
/// long as the process, so no other live thread has its identifier. (A
/// process forked from another thread would keep its parent's: Swift
/// programs fork only to `exec`, through Foundation's `Process`.)
enum MainThread {
    #if canImport(Glibc)
        /// The main thread's `pthread_self()`; 0 until it was first seen.
        private static let identifier = Atomic<UInt>(0)

        static var isCurrent: Bool {
            isMain(pthread_self(), knownMain: identifier) { Thread.isMainThread }
        }
    #else
        static var isCurrent: Bool { Thread.isMainThread }
    #endif

    /// Whether `thread` is the main thread: compared with `knownMain` once
    /// it holds the main thread's identifier, asked of `foundationAnswer`
    /// (and kept, if yes) until then.
    ///
    /// No thread's identifier is 0. `knownMain` is stored only by the main
    /// thread, always the same value, so a relaxed load sees 0 or that value.
    static func isMain(_ thread: UInt, knownMain: borrowing Atomic<UInt>, foundationAnswer: () -> Bool) -> Bool {
        let main = knownMain.load(ordering: .relaxed)
        if main != 0 { return thread == main }
        guard foundationAnswer() else { return false }
        knownMain.store(thread, ordering: .relaxed)
        return true
    }
}

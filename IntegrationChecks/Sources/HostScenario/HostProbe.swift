import Dispatch
import Foundation
import Synchronization

/// Facts about where code runs and what the process holds, read the same way
/// in every host.
public enum HostProbe {
    /// Whether the code runs on the process's main thread.
    public static var isMainThread: Bool { Thread.isMainThread }

    /// Whether the code runs on the main queue, which is where the main actor
    /// runs; read from a queue-specific tag because on Linux the main queue
    /// can be serviced by a thread other than the main thread.
    public static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueTag.key) != nil }

    /// Tags the main queue; call once, from the main thread, before anything
    /// asks ``isOnMainQueue``.
    public static func tagMainQueue() {
        DispatchQueue.main.setSpecific(key: mainQueueTag.key, value: 1)
    }

    /// Resident memory in bytes, or nil where the platform offers no cheap
    /// reading (read from `/proc/self/statm` on Linux).
    public static func residentBytes() -> Int? {
        #if os(Linux)
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = statm.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    /// Runs `body` on a new thread (not a task, not the main thread) and
    /// returns once it has finished.
    public static func onBackgroundThread(_ body: @escaping @Sendable () -> Void) {
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            finished.signal()
        }
        finished.wait()
    }

    /// Runs `body` on a new thread (not a task, not the main thread) and
    /// returns its result once it has finished.
    public static func onBackgroundThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let result = ResultBox<Result>()
        onBackgroundThread { result.value.withLock { $0 = body() } }
        guard let value = result.value.withLock({ $0 }) else { preconditionFailure("the thread set no result") }
        return value
    }

    /// Runs `body` in a task and returns once it has finished, blocking the
    /// calling thread meanwhile; for synchronous hosts, and only for work
    /// that does not need the caller's actor.
    public static func waitForTask(_ body: @escaping @Sendable () async -> Void) {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            finished.signal()
        }
        finished.wait()
    }

    /// Carries a background thread's result back to the thread that waited.
    private final class ResultBox<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
    }

    private static let mainQueueTag = MainQueueTag()

    /// The queue-specific key, in a box because not every Dispatch overlay
    /// declares `DispatchSpecificKey` Sendable.
    private final class MainQueueTag: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and only passed to
        // Dispatch's thread-safe `setSpecific` / `getSpecific`.
        let key = DispatchSpecificKey<UInt8>()
    }
}

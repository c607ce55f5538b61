import Synchronization

/// Counts the calls a deprecated waiting broadcast makes, from whichever
/// thread or actor each call runs on.
final class CallCounter: Sendable {
    private let calls = Mutex(0)

    /// Counts one call.
    func increment() {
        calls.withLock { $0 += 1 }
    }

    /// The calls counted so far.
    var count: Int {
        calls.withLock { $0 }
    }
}

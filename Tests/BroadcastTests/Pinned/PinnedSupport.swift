import Broadcast
import Dispatch
import Foundation

// Support for the pinned tests: the guarantees of the delivery core that a
// rewrite must keep, each pinned by a test that fails when one of them is
// broken (the broken cores are described beside each test).

/// Holds the main actor with a main-actor task that blocks until
/// ``release()``: what a long synchronous piece of UI work does.
///
/// Deterministic: ``hold()`` returns once the main actor is held, so what a
/// test schedules on the main actor afterwards cannot run before the
/// release.
final class MainActorHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let released = Locked(false)

    private init() {}

    /// Returns once a main-actor task is blocked.
    ///
    /// Call it off the main actor (the caller resumes elsewhere while the
    /// main actor is held).
    static func hold() async -> MainActorHold {
        let hold = MainActorHold()
        await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
            Task { @MainActor in
                held.resume()
                hold.gate.wait()
            }
        }
        return hold
    }

    /// Lets the main actor go on; later calls do nothing.
    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { gate.signal() }
    }
}

/// Where code runs, as the pinned spies record it: `"main queue"` or
/// `"elsewhere"`.
var mainQueueOrElsewhere: String { MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere" }

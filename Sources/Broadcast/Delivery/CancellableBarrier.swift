import Synchronization

/// A wait that ends once: when ``open()`` is called (by the mailbox job that
/// marks the point waited for), or at once when the waiting task is
/// cancelled, whichever comes first.
///
/// Why: ``Broadcaster/waitForScheduledDeliveries()`` waits for jobs on
/// actors it does not control. An actor that never runs them (blocked, or a
/// mailbox that stopped draining) would keep the waiting task suspended for
/// good, beyond the reach of its cancellation: a test's time limit would
/// fire and could not end it. Cancelled, the waiter returns without waiting
/// for the rest; the job, when it runs later, finds the barrier open and
/// does nothing.
///
/// One waiter per barrier. Both ways out take the lock, so a cancellation
/// either finds the suspended waiter and resumes it, or is seen by the
/// waiter before it suspends: the continuation is resumed exactly once.
final class CancellableBarrier: Sendable {
    private enum State {
        /// Not opened yet; the suspended waiter, once it has suspended.
        case closed(waiter: CheckedContinuation<Void, Never>?)
        case opened
    }

    private let state = Mutex(State.closed(waiter: nil))

    init() {}

    /// Ends the wait; later calls do nothing.
    func open() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard case .closed(let waiter) = state else { return nil }
            state = .opened
            return waiter
        }
        waiter?.resume()
    }

    /// Returns once ``open()`` has been called, or at once if the current
    /// task is (or becomes) cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard case .closed = state, !Task.isCancelled else { return true }
                    state = .closed(waiter: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}

import Synchronization

/// One wait that ends when whichever comes first opens it: the job it
/// scheduled, or the waiting task's cancellation.
///
/// ``Broadcaster/waitForScheduledDeliveries()`` waits on one per mailbox. The
/// continuation is resumed exactly once: the first `open()` resumes it (or,
/// if it comes before the wait begins, makes the wait return at once), and
/// every later one does nothing.
final class CancellableBarrier: Sendable {
    private enum State {
        case waiting
        case armed(CheckedContinuation<Void, Never>)
        case open
    }

    private let state = Mutex(State.waiting)

    /// Suspends until ``open()`` is called; `schedule` receives the function
    /// that opens the barrier, to hand to the job that ends the wait.
    func wait(scheduling schedule: (@escaping @Sendable () -> Void) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openedAlready = state.withLock { state in
                guard case .waiting = state else { return true }
                state = .armed(continuation)
                return false
            }
            if openedAlready {
                continuation.resume()
                return
            }
            schedule { self.open() }
        }
    }

    /// Ends the wait; does nothing once it has ended.
    func open() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .open }
            guard case .armed(let continuation) = state else { return nil }
            return continuation
        }
        continuation?.resume()
    }
}

import Synchronization

/// One wait for a mailbox to reach a point: resumed once, either by the job
/// that marks the point (when the mailbox runs it) or by the waiting task's
/// cancellation, whichever comes first.
final class MailboxBarrier: Sendable {
    private enum State {
        case waiting
        case suspended(CheckedContinuation<Void, Never>)
        case done
    }

    private let state = Mutex(State.waiting)

    /// Enqueues the barrier's job on `mailbox` and returns when it has run,
    /// or at once when the task is (or gets) cancelled.
    static func wait(for mailbox: ActorMailbox) async {
        let barrier = MailboxBarrier()
        mailbox.enqueue { _ in barrier.resume() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                barrier.suspend(continuation)
            }
        } onCancel: {
            barrier.resume()
        }
    }

    private func suspend(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state in
            guard case .waiting = state else { return true }
            state = .suspended(continuation)
            return false
        }
        if resumeNow { continuation.resume() }
    }

    private func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .done }
            if case .suspended(let continuation) = state { return continuation }
            return nil
        }
        continuation?.resume()
    }
}

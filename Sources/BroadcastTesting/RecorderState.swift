/// What a recorder's lock guards: the values in the order they were
/// recorded, and the waits not over yet.
///
/// Its methods decide and return; the recorder resumes the continuations
/// they hand back after unlocking.
struct RecorderState<Value: Sendable> {
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// Where one wait stands.
    private enum Wait {
        /// Announced; its continuation is not handed over yet.
        case announced
        /// Cancelled before its continuation was handed over.
        case cancelled
        /// Suspended until `count` values are recorded.
        case suspended(count: Int, Continuation)
    }

    /// How a wait handed over ends at once, if it does.
    enum Handover {
        case arrived
        case cancelled
        case suspended
    }

    private(set) var values: [Value] = []
    private var waits: [Int: Wait] = [:]
    private var nextWait = 0

    /// Reserves a wait, so that a cancellation that comes before its
    /// continuation is not lost.
    mutating func announceWait() -> Int {
        defer { nextWait += 1 }
        waits[nextWait] = .announced
        return nextWait
    }

    /// Records `value`; returns the waits it completes.
    mutating func append(_ value: Value) -> [Continuation] {
        values.append(value)
        var completed: [Continuation] = []
        for (wait, state) in waits {
            if case .suspended(let count, let continuation) = state, count <= values.count {
                waits[wait] = nil
                completed.append(continuation)
            }
        }
        return completed
    }

    mutating func suspend(_ wait: Int, until count: Int, _ continuation: Continuation) -> Handover {
        if case .cancelled = waits[wait] {
            waits[wait] = nil
            return .cancelled
        }
        if values.count >= count {
            waits[wait] = nil
            return .arrived
        }
        waits[wait] = .suspended(count: count, continuation)
        return .suspended
    }

    /// Ends a wait; returns its continuation if it was suspended.
    mutating func cancel(_ wait: Int) -> Continuation? {
        switch waits[wait] {
        case .announced:
            waits[wait] = .cancelled
            return nil
        case .suspended(_, let continuation):
            waits[wait] = nil
            return continuation
        case .cancelled, nil:
            return nil
        }
    }
}

import Synchronization

/// Adds up the calls of one awaited broadcast across the batches it scheduled
/// on actors, and reports the total once the last batch has run.
final class DeliveryTally: Sendable {
    private struct State {
        var made: Int
        var pendingBatches: Int
    }

    private let state: Mutex<State>
    private let completion: @Sendable (Int) -> Void

    init(madeSoFar: Int, pendingBatches: Int, completion: @escaping @Sendable (Int) -> Void) {
        state = Mutex(State(made: madeSoFar, pendingBatches: pendingBatches))
        self.completion = completion
    }

    func batchFinished(made: Int) {
        let total: Int? = state.withLock { state in
            state.made += made
            state.pendingBatches -= 1
            return state.pendingBatches == 0 ? state.made : nil
        }
        if let total { completion(total) }
    }
}

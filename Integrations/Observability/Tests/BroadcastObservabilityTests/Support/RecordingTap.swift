import Broadcast
import Synchronization

/// A tap that keeps every observation, for comparing what an adapter made of
/// a broadcast with what the broadcaster observed.
final class RecordingTap: BroadcastTap {
    private let recorded = Mutex<[BroadcastObservation]>([])

    var observations: [BroadcastObservation] { recorded.withLock { $0 } }

    func observe(_ observation: BroadcastObservation) {
        recorded.withLock { $0.append(observation) }
    }
}

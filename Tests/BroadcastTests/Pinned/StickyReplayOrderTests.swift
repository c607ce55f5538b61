import Broadcast
import Testing

/// A state with no value, kept sticky and replayed where a listener
/// registers.
protocol ConnectivityListener: AnyObject {
    func connectivityRestored()
}

/// A numbered state, kept sticky on the main actor.
protocol SyncStateListener: AnyObject {
    func syncStateChanged(to value: Int)
}

/// Reacts to connectivity by moving the sync state on (a newer sticky
/// broadcast on the main actor), and records every sync state it is told,
/// on the main actor, in order.
final class SyncingListener: ConnectivityListener, SyncStateListener, Sendable {
    let broadcaster: Broadcaster
    let states = Locked<[String]>([])

    init(broadcaster: Broadcaster) { self.broadcaster = broadcaster }

    func connectivityRestored() {
        broadcaster.broadcastOnMainActor(to: SyncStateListener.self, sticky: true) { $0.syncStateChanged(to: 2) }
    }

    func syncStateChanged(to value: Int) {
        let place = mainQueueOrElsewhere
        states.withLock { $0.append("\(value)@\(place)") }
    }
}

/// Pinned: a sticky replay that must run on the listener's actor is
/// enqueued there before any live broadcast can reach the new listener, so
/// the listener never sees an older state after a newer one.
///
/// The racing step is made deterministic by making it from inside the
/// registration: the replay of an older sticky state, run where the
/// listener registers, broadcasts a newer main-actor state, which reaches
/// the listener live. Checked with the main-actor replays enqueued after the
/// registration's lock is released, in sticky order (`Broadcaster.register`):
/// the listener is then told 2, then 1.
@Suite("Pinned: sticky replays are never overtaken", .timeLimit(.minutes(1)))
struct StickyReplayOrderTests {
    @Test func aNewerStateBroadcastByAnEarlierReplayArrivesAfterTheReplayedOne() async {
        let broadcaster = Broadcaster()
        broadcaster.broadcast(to: ConnectivityListener.self, sticky: true) { $0.connectivityRestored() }
        broadcaster.broadcastOnMainActor(to: SyncStateListener.self, sticky: true) { $0.syncStateChanged(to: 1) }
        let listener = SyncingListener(broadcaster: broadcaster)

        // From a plain thread: no actor, so the connectivity replay runs
        // there, and the main-actor replay of 1 is scheduled.
        await onNewThread { _ = broadcaster.addListener(listener, receivingSticky: true) }
        await broadcaster.waitForScheduledDeliveries()

        #expect(listener.states.withLock { $0 } == ["1@main queue", "2@main queue"])
    }

    @Test func theSameFromATaskWithNoActor() async {
        let broadcaster = Broadcaster()
        broadcaster.broadcast(to: ConnectivityListener.self, sticky: true) { $0.connectivityRestored() }
        broadcaster.broadcastOnMainActor(to: SyncStateListener.self, sticky: true) { $0.syncStateChanged(to: 1) }
        let listener = SyncingListener(broadcaster: broadcaster)

        await Task.detached { _ = broadcaster.addListener(listener, receivingSticky: true) }.value
        await broadcaster.waitForScheduledDeliveries()

        #expect(listener.states.withLock { $0 } == ["1@main queue", "2@main queue"])
    }
}

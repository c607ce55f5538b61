import Broadcast
import Testing

/// Pinned: ``Broadcaster/waitForScheduledDeliveries()`` waits only for the
/// actors a call was scheduled on, so a program whose main actor never runs
/// is not kept waiting when nothing was scheduled there.
@Suite("Pinned: a wait does not wait for an actor nothing is scheduled on")
struct IdleMailboxWaitTests {
    @Test(.timeLimit(.minutes(1)))
    func aWaitReturnsWhileTheMainActorIsHeldIfNothingIsScheduledThere() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spy = PingSpy("plain", log: log)
        broadcaster.addListener(spy)  // no actor, a conformance that holds anywhere
        let hold = await MainActorHold.hold()
        let made = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        let returned = await drained(broadcaster, within: 20)
        hold.release()
        #expect(made == 1)
        #expect(returned, "the wait returned while the main actor was held")
        #expect(log.all == ["plain:1"])
        withExtendedLifetime(spy) {}
    }
}

import Broadcast
import BroadcastTesting
import Testing

/// Registers a handler of `Int` posts on ``DrainActor``, recording them.
@DrainActor func drainActorHandler(on broadcaster: Broadcaster, recording received: BroadcastRecorder<Int>)
    -> BroadcastToken
{
    broadcaster.addHandler(for: Int.self, calledOn: DrainActor.shared) { received.record($0) }
}

/// Pinned: every call scheduled on an actor runs exactly once, also when it
/// is enqueued while the actor's mailbox drains.
@Suite("Pinned: a mailbox runs each job once", .timeLimit(.minutes(1)))
struct MailboxFloodTests {
    /// Fails within 8 seconds, by its own deadline, on a mailbox that drops
    /// (the count never arrives) or repeats (values twice) a job enqueued
    /// while it drains.
    @Test func postsFromTwoThreadsWhileTheMailboxDrainsEachRunOnce() async {
        let broadcaster = Broadcaster()
        let received = BroadcastRecorder<Int>()
        let token = await drainActorHandler(on: broadcaster, recording: received)
        let perThread = 1_000

        // Two threads post at once, continuously: each post enqueues a job
        // on the actor's mailbox, mostly while it drains the earlier ones.
        await PacedRace.race(count: perThread) {
            broadcaster.post($0 * 2)
        } _: {
            broadcaster.post($0 * 2 + 1)
        }

        let values = await finishing(within: 8) {
            try? await received.waitForValues(count: perThread * 2, timeout: .seconds(8))
            await broadcaster.waitForScheduledDeliveries()
            return received.values
        }
        #expect(values?.count == perThread * 2, "each post's call runs once")
        #expect(values.map { Set($0) } == Set(0..<perThread * 2))
        withExtendedLifetime(token) {}
    }
}

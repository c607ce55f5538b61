import Broadcast
import Testing

/// The actor whose mailbox the drain test fills while it drains.
@globalActor actor DrainActor {
    static let shared = DrainActor()
}

/// A listener that is not `Sendable`, registered from ``DrainActor`` code.
///
/// A broadcast made anywhere else (even from its own methods, which run on
/// the actor but are isolated to nothing) schedules its call on that actor.
/// Its kick broadcasts a ping from inside the mailbox's drain.
final class DrainSpy: ReentryKick, ReentryPing {
    private let broadcaster: Broadcaster
    private let seen: AsyncStream<String>.Continuation

    init(broadcaster: Broadcaster, seen: AsyncStream<String>.Continuation) {
        self.broadcaster = broadcaster
        self.seen = seen
    }

    func kick() {
        seen.yield("kick")
        broadcaster.broadcast(to: ReentryPing.self) { $0.ping(1) }
    }

    func ping(_ n: Int) { seen.yield("ping") }
}

/// Keeps the ``DrainSpy`` on its actor.
@DrainActor enum DrainSpies {
    static var kept: [DrainSpy] = []

    static func register(on broadcaster: Broadcaster, reportingTo seen: AsyncStream<String>.Continuation) {
        let spy = DrainSpy(broadcaster: broadcaster, seen: seen)
        broadcaster.addListener(spy, calledOn: DrainActor.shared)
        kept.append(spy)
    }
}

/// Pinned: a delivery scheduled on an actor while that actor's mailbox
/// drains runs without anything else being enqueued.
@Suite("Pinned: a mailbox drains what arrives while it drains", .timeLimit(.minutes(1)))
struct MailboxDrainTests {
    // fails within seconds on a mailbox whose drain strands the jobs
    // enqueued while it runs (the ping waits for a later broadcast).
    @Test func aCallScheduledFromInsideADrainRunsWithoutAnotherBroadcast() async {
        let broadcaster = Broadcaster()
        let (seen, report) = AsyncStream.makeStream(of: String.self)
        await DrainSpies.register(on: broadcaster, reportingTo: report)

        // From here (no actor): the kick waits in the actor's mailbox; the
        // ping it broadcasts joins the mailbox while the kick's drain runs.
        #expect(broadcaster.broadcast(to: ReentryKick.self) { $0.kick() } == 1)

        // 20 s: a full run under AddressSanitizer on two cores can hold the
        // concurrency pool for about ten; a job repeated fails at once, and
        // MailboxFloodTests fails within 10 s on a job dropped.
        #expect(await finishing(within: 20) { await first(2, of: seen) } == ["kick", "ping"])
    }
}

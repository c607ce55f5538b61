import Broadcast
import Foundation
import Synchronization
import Testing

/// A cast proves a conformance holds anywhere only where no isolated
/// conformance can be used.
///
/// That is with no actor, off the main queue and outside every task. In a task, code with no actor of its own may run on an
/// actor's executor (a synchronous nonisolated function called from the
/// actor's code), where the runtime's cast uses a conformance isolated to it.
@Suite("What a cast proves")
struct ConformanceProofTests {
    @Test(.timeLimit(.minutes(1)))
    func aCastMadeOnAnActorsExecutorByCodeWithNoActorProvesNothingElsewhere() async {
        let broadcaster = Broadcaster()
        let listener = ProofEventListener()
        #expect(await onNewThread { broadcaster.addListener(listener) })  // no actor
        // On the actor's executor the cast succeeds, and the call is made there.
        await postOnProofActor(broadcaster)
        #expect(listener.calls == 1)
        // From a plain thread the conformance cannot hold: no call, then or later.
        _ = await onNewThread { broadcaster.post(ProofEvent()) }
        #expect(await drained(broadcaster))
        #expect(listener.calls == 1, "a post from a plain thread called a conformance isolated to another actor")
        withExtendedLifetime(listener) {}
    }
}

extension ConformanceProofTests {
    /// The same place through another entry point: an explanation asked by
    /// code with no actor on the actor's executor does not promise a call on
    /// the main actor, where the conformance does not hold; the broadcast
    /// made there schedules a call the main actor's cast does not make.
    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func anExplanationAskedOnAnActorsExecutorByCodeWithNoActorPromisesNoCallElsewhere() async {
        let broadcaster = Broadcaster()
        let pinger = ProofPinger()
        broadcaster.addListener(pinger, calledOn: MainActor.shared)
        let (explanation, made) = await explainAndBroadcastOnProofActor(pinger, broadcaster)
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(made == 1, "scheduled on the main actor, counted")
        #expect(await drained(broadcaster))
        #expect(pinger.calls == 0, "the main actor's cast finds no conformance there")
    }
}

/// A `Ping` only on ``ProofActor``.
final class ProofPinger: Sendable {
    private let count = Atomic<Int>(0)
    var calls: Int { count.load(ordering: .relaxed) }
    fileprivate func record() { count.add(1, ordering: .relaxed) }
}

extension ProofPinger: @ProofActor Ping {
    func ping(_ n: Int) { record() }
}

@ProofActor func explainAndBroadcastOnProofActor(_ pinger: ProofPinger, _ broadcaster: Broadcaster) -> (
    DeliveryExplanation, Int
) {
    explainAndBroadcastFromSynchronousCodeWithNoActor(pinger, broadcaster)
}

/// Runs on its caller's executor, with no actor of its own (`#isolation` is nil).
nonisolated func explainAndBroadcastFromSynchronousCodeWithNoActor(_ pinger: ProofPinger, _ broadcaster: Broadcaster)
    -> (DeliveryExplanation, Int)
{
    (broadcaster.deliveryExplanation(for: pinger, to: Ping.self), broadcaster.broadcast(to: Ping.self) { $0.ping(1) })
}

@globalActor actor ProofActor {
    static let shared = ProofActor()
}

struct ProofEvent: Sendable {}

final class ProofEventListener: Sendable {
    private let count = Atomic<Int>(0)
    var calls: Int { count.load(ordering: .relaxed) }
    fileprivate func record() { count.add(1, ordering: .relaxed) }
}

extension ProofEventListener: @ProofActor EventListener {
    func receive(_ event: ProofEvent) { record() }
}

@ProofActor func postOnProofActor(_ broadcaster: Broadcaster) {
    postFromSynchronousCodeWithNoActor(broadcaster)
}

/// Runs on its caller's executor, with no actor of its own (`#isolation` is nil).
nonisolated func postFromSynchronousCodeWithNoActor(_ broadcaster: Broadcaster) {
    broadcaster.post(ProofEvent())
}

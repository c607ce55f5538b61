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

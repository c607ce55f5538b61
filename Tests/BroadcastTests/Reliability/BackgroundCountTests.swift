import Broadcast
import Dispatch
import Foundation
import Testing

/// A main-actor class that listens to nothing `LifePing`-related.
@MainActor final class MainActorBystander {
    nonisolated init() {}
}

/// A documented limit of the synchronous count (see `broadcast(to:)`): off
/// the main thread, a generic cast cannot tell "does not conform" from
/// "conforms only on the main actor", so the first background broadcast to a
/// protocol counts a scheduled call for a main-actor listener whose conformance
/// is not known yet.
///
/// The scheduled call settles it on the main actor (and does
/// nothing); from then on counts are exact, and the awaitable form is always
/// exact. `broadcast(to:)`'s documentation says "made or scheduled" for this.
@Suite("Counts of broadcasts made off the main actor", .timeLimit(.minutes(1)))
struct BackgroundCountTests {
    @Test("a first background broadcast counts a scheduled call that the main actor then skips")
    func backgroundBroadcastCountsNonconformingMainActorListener() async {
        let broadcaster = Broadcaster()
        let bystander = MainActorBystander()
        await MainActor.run { _ = broadcaster.addListener(bystander) }
        let returned = await Task.detached { broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } }.value
        await broadcaster.waitForScheduledDeliveries()
        #expect(returned == 1)  // scheduled, then skipped on the main actor
        // Once the main actor has settled the question, the count is exact.
        let again = await Task.detached { broadcaster.broadcast(to: LifePing.self) { $0.ping(2) } }.value
        #expect(again == 0)
        let awaited = await Task.detached { await broadcaster.countedBroadcast(to: LifePing.self) { $0.ping(3) } }.value
        #expect(awaited == 0)
        withExtendedLifetime(bystander) {}
    }

    @Test("a listener registered on the main actor after the first broadcast is settled by its registration")
    func registrationOnTheMainActorSettlesConformance() async {
        let broadcaster = Broadcaster()
        // The protocol's index exists before the registration.
        #expect(broadcaster.broadcast(to: LifePing.self) { $0.ping(0) } == 0)
        let bystander = MainActorBystander()
        // A main-actor task can check a main-actor-isolated conformance, so
        // the registration there decides that the bystander does not conform.
        await MainActor.run { _ = broadcaster.addListener(bystander) }
        let returned = await Task.detached { broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } }.value
        #expect(returned == 0)
        #expect(
            broadcaster.deliveryExplanation(for: bystander, to: LifePing.self) == .doesNotConform)
        withExtendedLifetime(bystander) {}
    }
}

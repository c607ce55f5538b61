import Dispatch
import Foundation
import Testing
import Broadcast

/// A main-actor class that listens to nothing `LifePing`-related.
@MainActor final class FindingsBystander {
    nonisolated init() {}
}

/// Core behaviour found by the reliability work that differs from the stated
/// semantics. Each is a `withKnownIssue`: it passes while the bug is there and
/// fails ("known issue was not recorded") once the core is fixed, so the
/// marker gets removed with the fix.
@Suite("Reliability: findings")
struct ReliabilityFindingsTests {
    @Test("a background broadcast counts a main-actor listener that does not conform")
    func backgroundBroadcastCountsNonconformingMainActorListener() async {
        let broadcaster = Broadcaster()
        let bystander = FindingsBystander()
        await MainActor.run { _ = broadcaster.addListener(bystander) }
        let returned = await Task.detached { broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } }.value
        await broadcaster.waitForScheduledDeliveries()
        withKnownIssue("broadcast(to:) off the main actor counts a scheduled call that the main actor then skips") {
            #expect(returned == 0)
        }
        // Once the main actor has settled the question, the count is exact.
        let again = await Task.detached { broadcaster.broadcast(to: LifePing.self) { $0.ping(2) } }.value
        #expect(again == 0)
        withExtendedLifetime(bystander) {}
    }
}

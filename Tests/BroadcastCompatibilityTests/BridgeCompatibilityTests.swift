import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

/// The 0.1.0 way of registering through the system bridge behaves as it did.
@Suite("0.1.0 spellings: system bridge", .timeLimit(.minutes(1)))
struct BridgeCompatibilityTests {
    @MainActor @Test func addingThroughTheBridgeTellsTheCurrentStateWhenAsked() async {
        let broadcaster = Broadcaster()
        let bridge = SystemNotificationBridge(
            broadcaster: broadcaster, notificationCenter: NotificationCenter(), initialApplicationState: .active)
        let told = StateSpy()
        let untold = StateSpy()

        #expect(bridge.addListener(told, receivingCurrentState: true))
        #expect(bridge.addListener(untold, receivingCurrentState: false))
        await broadcaster.waitForScheduledDeliveries()

        #expect(told.calls == ["didBecomeActive"])
        #expect(untold.calls.isEmpty)
        #expect(broadcaster.isRegistered(untold))
    }
}

/// Records the application-state calls it receives, on the main actor.
@MainActor final class StateSpy: @MainActor ApplicationStateListener {
    private(set) var calls: [String] = []

    func applicationDidBecomeActive() { calls.append("didBecomeActive") }
    func applicationDidEnterBackground() { calls.append("didEnterBackground") }
}

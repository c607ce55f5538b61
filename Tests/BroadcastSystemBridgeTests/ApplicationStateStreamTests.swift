import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

@Suite("Application state as an async sequence", .timeLimit(.minutes(1)))
struct ApplicationStateStreamTests {
    @Test("the stream starts with the current state and follows every change in order")
    func followsChanges() async {
        let center = NotificationCenter()
        let bridge = SystemNotificationBridge(
            broadcaster: Broadcaster(), notificationCenter: center, initialApplicationState: .active)
        let simulator = SystemNotificationSimulator(center: center)
        var states = bridge.applicationStates().makeAsyncIterator()

        simulator.enterBackground()  // will resign active, did enter background
        simulator.enterForeground()  // will enter foreground, did become active
        simulator.applicationDidReceiveMemoryWarning()  // not a state change

        var received: [ApplicationState] = []
        for _ in 0..<4 {
            if let state = await states.next() { received.append(state) }
        }
        #expect(received == [.active, .inactive, .background, .active])
    }

    @Test("the stream ends when its bridge is released")
    func endsWithBridge() async {
        let center = NotificationCenter()
        var bridge: SystemNotificationBridge? = SystemNotificationBridge(
            broadcaster: Broadcaster(), notificationCenter: center)
        let stream = bridge!.applicationStates()
        SystemNotificationSimulator(center: center).applicationDidEnterBackground()
        bridge = nil

        var received: [ApplicationState] = []
        for await state in stream { received.append(state) }  // returns: the stream finished
        #expect(received == [.background])
    }

    @Test("the stream ends when the consuming task is cancelled")
    func endsOnCancellation() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
        let stream = bridge.applicationStates()
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        consumer.cancel()
        _ = await consumer.value
        #expect(broadcaster.registrationCount == 0)  // the stream's listener is gone
        withExtendedLifetime(bridge) {}
    }

    @Test("a late stream on the broadcaster asks for the latest state")
    func lateBroadcasterStream() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
        SystemNotificationSimulator(center: center).applicationDidEnterBackground()
        var late = broadcaster.events(of: ApplicationState.self, receivingSticky: true).makeAsyncIterator()
        let first = await late.next()
        #expect(first == .background)
        withExtendedLifetime(bridge) {}
    }
}

import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct BridgeDeliveryTests {
    private static func change(_ index: Int) -> KeyboardChange {
        KeyboardChange(
            beginFrame: .zero, endFrame: CGRect(x: 0, y: 500, width: 400, height: Double(100 + index)),
            animationDuration: Double(index) / 10, animationCurve: .init(rawValue: index), isLocal: true)
    }

    /// Every observed name reaches its typed method, with its parsed change,
    /// through a real (private) NotificationCenter.
    @Test @MainActor func everyNotificationReachesItsTypedMethod() async {
        let rig = Rig()
        let keyboard = KeyboardSpy()
        let application = ApplicationSpy()
        rig.broadcaster.addListener(keyboard)
        rig.broadcaster.addListener(application)

        for (index, event) in KeyboardEvent.allCases.enumerated() { rig.simulator.post(event, Self.change(index)) }
        for event in ApplicationEvent.allCases { rig.simulator.post(event) }
        await rig.broadcaster.waitForScheduledDeliveries()

        let expected = KeyboardEvent.allCases.enumerated().map { KeyboardSpy.Call(event: $1, change: Self.change($0)) }
        #expect(keyboard.calls == expected)
        #expect(application.events == ApplicationEvent.allCases)
        #expect(application.callsOffMain == 0)
    }

    /// The named simulator methods post the notification their name says.
    @Test @MainActor func simulatorMethodsPostTheirNotification() async {
        let rig = Rig()
        let keyboard = KeyboardSpy()
        let application = ApplicationSpy()
        rig.broadcaster.addListener(keyboard)
        rig.broadcaster.addListener(application)
        let s = rig.simulator
        s.keyboardWillShow(endFrame: keyboardFrame)
        s.keyboardDidShow(endFrame: keyboardFrame)
        s.keyboardWillChangeFrame(from: keyboardFrame, to: .zero)
        s.keyboardDidChangeFrame(from: keyboardFrame, to: .zero)
        s.keyboardWillHide(from: keyboardFrame)
        s.keyboardDidHide(from: keyboardFrame)
        s.applicationDidFinishLaunching()
        s.applicationDidBecomeActive()
        s.applicationWillResignActive()
        s.applicationDidEnterBackground()
        s.applicationWillEnterForeground()
        s.applicationWillTerminate()
        s.applicationDidReceiveMemoryWarning()
        s.showKeyboard(endFrame: keyboardFrame)
        s.launch()
        s.enterBackground()
        s.enterForeground()
        await rig.broadcaster.waitForScheduledDeliveries()

        #expect(
            keyboard.events == [
                .willShow, .didShow, .willChangeFrame, .didChangeFrame, .willHide, .didHide,
                .willChangeFrame, .willShow, .didShow, .didChangeFrame,
            ])
        #expect(
            keyboard.calls[0].change
                == KeyboardChange(
                    beginFrame: CGRect(x: 0, y: 800, width: 400, height: 300), endFrame: keyboardFrame,
                    animationDuration: 0.25, animationCurve: .init(rawValue: 7), isLocal: true))
        #expect(keyboard.calls[4].change.endFrame == CGRect(x: 0, y: 800, width: 400, height: 300))
        #expect(
            application.events == ApplicationEvent.allCases + [
                .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
                .willEnterForeground, .didBecomeActive,
            ])
    }

    /// Posted from background threads, events still reach listeners on the
    /// main actor, in posting order, including a conformance isolated to the
    /// main actor.
    @Test func postsFromAnyThreadAreDeliveredOnTheMainActor() async {
        let rig = Rig()
        let application = ApplicationSpy()
        rig.broadcaster.addListener(application)  // non-isolated registration
        let (keyboard, screen) = await MainActor.run {
            let keyboard = KeyboardSpy()
            let screen = ScreenSpy()
            rig.broadcaster.addListener(keyboard)
            rig.broadcaster.addListener(screen)
            return (keyboard, screen)
        }
        let simulator = rig.simulator
        await Task.detached {
            simulator.enterBackground()
            simulator.showKeyboard(endFrame: keyboardFrame)
            simulator.enterForeground()
        }.value
        await rig.broadcaster.waitForScheduledDeliveries()

        #expect(application.events == [.willResignActive, .didEnterBackground, .willEnterForeground, .didBecomeActive])
        #expect(application.callsOffMain == 0)
        await MainActor.run {
            #expect(keyboard.events == [.willChangeFrame, .willShow, .didShow, .didChangeFrame])
            #expect(screen.events == [.didEnterBackground, .didBecomeActive])
        }
    }

    /// After `stop()` nothing new is delivered, though the listener is still
    /// registered (the awaited broadcast reaches it); `start()` resumes.
    @Test @MainActor func stopEndsDeliveryAndStartResumesIt() async {
        let rig = Rig()
        let application = ApplicationSpy()
        rig.broadcaster.addListener(application)
        rig.simulator.applicationDidEnterBackground()
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didEnterBackground])

        rig.bridge.stop()
        rig.bridge.stop()
        #expect(!rig.bridge.isObserving)
        await Task.detached { rig.simulator.applicationDidBecomeActive() }.value
        rig.simulator.applicationWillTerminate()
        let reached = rig.broadcaster.broadcastOnMainActor(to: (any ApplicationStateListener).self) {
            $0.applicationDidReceiveMemoryWarning()
        }
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(reached == 1)
        #expect(application.events == [.didEnterBackground, .didReceiveMemoryWarning])
        #expect(rig.bridge.applicationState == .background)  // the state froze too

        rig.bridge.start()
        #expect(rig.bridge.isObserving)
        rig.simulator.applicationDidBecomeActive()
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didEnterBackground, .didReceiveMemoryWarning, .didBecomeActive])
    }

    /// A released bridge is deallocated (the center does not keep it alive)
    /// and stops delivering; the listener is still reachable.
    @Test @MainActor func releasedBridgeStopsDelivering() async {
        let center = NotificationCenter()
        let broadcaster = Broadcaster()
        let simulator = SystemNotificationSimulator(center: center)
        let application = ApplicationSpy()
        let keyboard = KeyboardSpy()
        broadcaster.addListener(application)
        broadcaster.addListener(keyboard)
        var bridge: SystemNotificationBridge? = SystemNotificationBridge(
            broadcaster: broadcaster, notificationCenter: center)
        weak let weakBridge = bridge
        simulator.applicationDidEnterBackground()
        await broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didEnterBackground])

        bridge = nil
        #expect(weakBridge == nil)
        simulator.applicationDidBecomeActive()
        await Task.detached { simulator.showKeyboard(endFrame: keyboardFrame) }.value
        let reached = broadcaster.broadcastOnMainActor(to: (any ApplicationStateListener).self) {
            $0.applicationWillTerminate()
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(reached == 1)
        #expect(application.events == [.didEnterBackground, .willTerminate])
        #expect(keyboard.events.isEmpty)
    }

    /// Two bridges on one center: independent with separate broadcasters,
    /// double delivery when they share one.
    @Test @MainActor func twoBridgesAreIndependentOrDoubleDeliver() async {
        let center = NotificationCenter()
        let first = Broadcaster()
        let second = Broadcaster()
        let bridges = [
            SystemNotificationBridge(broadcaster: first, notificationCenter: center),
            SystemNotificationBridge(broadcaster: second, notificationCenter: center),
        ]
        let firstSpy = ApplicationSpy()
        let secondSpy = ApplicationSpy()
        first.addListener(firstSpy)
        second.addListener(secondSpy)
        SystemNotificationSimulator(center: center).applicationDidEnterBackground()
        await first.waitForScheduledDeliveries()
        await second.waitForScheduledDeliveries()
        #expect(firstSpy.events == [.didEnterBackground])
        #expect(secondSpy.events == [.didEnterBackground])

        let shared = SystemNotificationBridge(broadcaster: first, notificationCenter: center)
        SystemNotificationSimulator(center: center).applicationDidBecomeActive()
        await first.waitForScheduledDeliveries()
        #expect(firstSpy.events == [.didEnterBackground, .didBecomeActive, .didBecomeActive])
        withExtendedLifetime((bridges, shared)) {}
    }
}

@Suite(.timeLimit(.minutes(1))) struct BridgeStateTests {
    /// The state a listener reads while handling an event already includes
    /// that event.
    final class StateReader: ApplicationStateListener, @unchecked Sendable {
        // @unchecked Sendable: `seen` is only touched on the main actor (the
        // bridge delivers there) and read after the barrier.
        weak var bridge: SystemNotificationBridge?
        var seen: [ApplicationState?] = []
        func applicationDidEnterBackground() { seen.append(bridge?.applicationState) }
        func applicationDidBecomeActive() { seen.append(bridge?.applicationState) }
    }

    @Test func stateIsUpdatedBeforeListenersRun() async {
        let rig = Rig()
        let reader = StateReader()
        reader.bridge = rig.bridge
        rig.broadcaster.addListener(reader)
        #expect(rig.bridge.applicationState == nil)
        #expect(rig.bridge.keyboardState == .hidden)

        await Task.detached { rig.simulator.applicationDidEnterBackground() }.value
        #expect(rig.bridge.applicationState == .background)  // before the delivery is awaited
        await rig.broadcaster.waitForScheduledDeliveries()
        await MainActor.run { rig.simulator.applicationDidBecomeActive() }
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(reader.seen == [.background, .active])
    }

    @Test func initialStateCanBeGiven() {
        #expect(Rig(initialApplicationState: .active).bridge.applicationState == .active)
    }

    /// Registered on the main actor, a late joiner is told the current state
    /// before `addListener` returns, once.
    @Test @MainActor func lateJoinerOnMainActorReceivesCurrentStateAtOnce() async {
        let rig = Rig()
        rig.simulator.enterBackground()
        rig.simulator.showKeyboard(endFrame: keyboardFrame)
        await rig.broadcaster.waitForScheduledDeliveries()

        let application = ApplicationSpy()
        let keyboard = KeyboardSpy()
        let screen = ScreenSpy()
        #expect(rig.broadcaster.addListener(application, receivingSticky: true))
        rig.broadcaster.addListener(keyboard, receivingSticky: true)
        rig.broadcaster.addListener(screen, receivingSticky: true)
        #expect(application.events == [.didEnterBackground])
        #expect(screen.events == [.didEnterBackground])
        #expect(keyboard.events == [.didShow])
        #expect(keyboard.calls.first?.change.endFrame == keyboardFrame)

        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didEnterBackground])  // not delivered twice
        rig.simulator.enterForeground()
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didEnterBackground, .willEnterForeground, .didBecomeActive])
    }

    @Test @MainActor func withoutCurrentStateOrWithUnknownStateNothingIsReplayed() async {
        let rig = Rig()
        let unknown = ApplicationSpy()
        let hiddenKeyboard = KeyboardSpy()
        rig.broadcaster.addListener(unknown, receivingSticky: true)
        rig.broadcaster.addListener(hiddenKeyboard, receivingSticky: true)
        rig.simulator.applicationDidBecomeActive()
        await rig.broadcaster.waitForScheduledDeliveries()
        let optedOut = ApplicationSpy()
        rig.broadcaster.addListener(optedOut, receivingSticky: false)
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(unknown.events == [.didBecomeActive])
        #expect(hiddenKeyboard.events.isEmpty)
        #expect(optedOut.events.isEmpty)
        #expect(rig.broadcaster.registrationCount == 3)
    }

    /// Registered off the main actor, the replay is scheduled on the main
    /// actor and covered by the broadcaster's barrier.
    @Test func lateJoinerOffMainReceivesStateOnMainActor() async {
        let rig = Rig(initialApplicationState: .active)
        let application = ApplicationSpy()
        rig.broadcaster.addListener(application, receivingSticky: true)
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(application.events == [.didBecomeActive])
        #expect(application.callsOffMain == 0)
    }

    /// Registering while another thread posts: the listener ends up told each
    /// state once, and its last call matches the final state.
    @Test func lateJoinersRacingPostsSeeAConsistentSequence() async {
        for _ in 0..<50 {
            let rig = Rig(initialApplicationState: .active)
            let spies = (0..<8).map { _ in ApplicationSpy() }
            let simulator = rig.simulator
            async let posting: Void = Task.detached {
                for _ in 0..<20 {
                    simulator.enterBackground()
                    simulator.enterForeground()
                }
                simulator.applicationDidEnterBackground()
            }.value
            for spy in spies { rig.broadcaster.addListener(spy, receivingSticky: true) }
            await posting
            await rig.broadcaster.waitForScheduledDeliveries()
            for spy in spies {
                let states = spy.events.compactMap(\.resultingState)
                #expect(states.last == .background)
                #expect(
                    zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "a state told twice in a row: \(states)")
            }
        }
    }
}

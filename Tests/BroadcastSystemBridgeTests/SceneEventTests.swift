import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct SceneEventTests {
    /// The bridge observes the raw UIKit names on every platform, spelled
    /// exactly as the Objective-C symbols (listed independently here).
    @Test func namesAreTheRawUIKitNames() {
        #expect(
            SceneEvent.allCases.map(\.notificationName.rawValue) == [
                "UISceneWillConnectNotification", "UISceneDidActivateNotification",
                "UISceneWillDeactivateNotification", "UISceneWillEnterForegroundNotification",
                "UISceneDidEnterBackgroundNotification", "UISceneDidDisconnectNotification",
            ])
    }

    @Test func sceneNamesAreDistinctFromEveryOtherName() {
        let names =
            KeyboardEvent.allCases.map(\.notificationName) + ApplicationEvent.allCases.map(\.notificationName)
            + SceneEvent.allCases.map(\.notificationName)
        #expect(Set(names).count == 19)
    }

    /// Each event leaves its scene where UIKit's activation state says:
    /// connected scenes start in the background, entering the foreground is
    /// inactive until did activate, disconnecting leaves.
    @Test func eachEventDefinesTheSceneState() {
        let states = SceneEvent.allCases.map { "\($0):\($0.resultingState.map { "\($0)" } ?? "gone")" }
        #expect(
            states == [
                "willConnect:background", "didActivate:active", "willDeactivate:inactive",
                "willEnterForeground:inactive", "didEnterBackground:background", "didDisconnect:gone",
            ])
    }

    /// Every scene notification reaches its typed method with the identity
    /// its object carries, through a real (private) center; the junk in
    /// `userInfo` is not read.
    @Test(arguments: SceneEvent.allCases) @MainActor
    func everySceneNotificationReachesItsMethodWithItsScene(event: SceneEvent) {
        let rig = Rig()
        let spy = SceneSpy()
        rig.broadcaster.addListener(spy)

        rig.simulator.post(event, for: phone)
        rig.center.post(name: event.notificationName, object: secondWindow, userInfo: ["junk": NSObject()])

        #expect(spy.calls == [SceneCall(event, phone), SceneCall(event, secondWindow)])
    }

    /// The named simulator methods post the notification their name says,
    /// and the sequences post what iOS sends, in order.
    @Test @MainActor func simulatorMethodsPostTheirNotifications() {
        let rig = Rig()
        let spy = SceneSpy()
        rig.broadcaster.addListener(spy)
        let s = rig.simulator
        s.sceneWillConnect(phone)
        s.sceneWillEnterForeground(phone)
        s.sceneDidActivate(phone)
        s.sceneWillDeactivate(phone)
        s.sceneDidEnterBackground(phone)
        s.sceneDidDisconnect(phone)
        s.connect(secondWindow)
        s.enterBackground(secondWindow)
        s.enterForeground(secondWindow)

        #expect(
            spy.calls == [
                SceneCall(.willConnect, phone), SceneCall(.willEnterForeground, phone),
                SceneCall(.didActivate, phone), SceneCall(.willDeactivate, phone),
                SceneCall(.didEnterBackground, phone), SceneCall(.didDisconnect, phone),
                SceneCall(.willConnect, secondWindow), SceneCall(.willEnterForeground, secondWindow),
                SceneCall(.didActivate, secondWindow), SceneCall(.willDeactivate, secondWindow),
                SceneCall(.didEnterBackground, secondWindow), SceneCall(.willEnterForeground, secondWindow),
                SceneCall(.didActivate, secondWindow),
            ])
        let built = SystemNotificationSimulator.notification(.didActivate, for: airPlay)
        #expect(built.name.rawValue == "UISceneDidActivateNotification")
        #expect(built.object as? SceneIdentity == airPlay)
        #expect(built.userInfo == nil)
    }

    /// `send(for:to:)` calls the event's method, with the scene, on a
    /// listener that follows that scene or every scene, and not on one that
    /// follows another scene: the same rule the bridge applies.
    @Test @MainActor func sendCallsOnlyListenersThatFollowTheScene() {
        let everyScene = SceneSpy()
        let phoneOnly = SceneSpy(following: phone)
        let otherOnly = SceneSpy(following: secondWindow)
        for event in SceneEvent.allCases {
            for spy in [everyScene, phoneOnly, otherOnly] { event.send(for: phone, to: spy) }
        }
        let expected = SceneEvent.allCases.map { SceneCall($0, phone) }
        #expect(everyScene.calls == expected)
        #expect(phoneOnly.calls == expected)
        #expect(otherOnly.calls.isEmpty)
    }

    /// Posted from background threads, scene events reach a non-isolated
    /// model on the main actor, in posting order; after `stop()` none does.
    @Test func postsFromAnyThreadAreDeliveredOnTheMainActor() async {
        let rig = Rig()
        let model = SceneModelSpy()
        rig.broadcaster.addListener(model)
        let simulator = rig.simulator
        await Task.detached {
            simulator.connect(phone)
            simulator.enterBackground(phone)
        }.value
        await rig.broadcaster.waitForScheduledDeliveries()
        rig.bridge.stop()
        await Task.detached { simulator.sceneDidDisconnect(phone) }.value
        await rig.broadcaster.waitForScheduledDeliveries()

        #expect(
            model.calls.all == [
                SceneCall(.willConnect, phone), SceneCall(.willEnterForeground, phone),
                SceneCall(.didActivate, phone), SceneCall(.willDeactivate, phone),
                SceneCall(.didEnterBackground, phone),
            ])
        #expect(model.offMainCalls.all.isEmpty)
        #expect(rig.bridge.connectedScenes == ConnectedScenes([phone: .background]))
    }
}

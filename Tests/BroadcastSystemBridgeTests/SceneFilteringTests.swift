import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

/// A listener that follows one scene hears that scene only; one that
/// follows every scene hears them all, each call naming its scene.
@Suite(.timeLimit(.minutes(1))) struct SceneFilteringTests {
    @Test @MainActor func aListenerFollowingOneSceneHearsOnlyThatScene() {
        let rig = Rig()
        let everyScene = SceneSpy()
        let phoneScreen = SceneSpy(following: phone)
        let secondScreen = SceneSpy(following: secondWindow)
        for spy in [everyScene, phoneScreen, secondScreen] { rig.broadcaster.addListener(spy) }

        rig.simulator.connect(phone)
        rig.simulator.connect(secondWindow)
        rig.simulator.enterBackground(phone)

        #expect(
            phoneScreen.calls == [
                SceneCall(.willConnect, phone), SceneCall(.willEnterForeground, phone),
                SceneCall(.didActivate, phone), SceneCall(.willDeactivate, phone),
                SceneCall(.didEnterBackground, phone),
            ])
        #expect(
            secondScreen.calls == [
                SceneCall(.willConnect, secondWindow), SceneCall(.willEnterForeground, secondWindow),
                SceneCall(.didActivate, secondWindow),
            ])
        #expect(everyScene.calls.count == 8)
        #expect(everyScene.calls.filter { $0.scene == phone } == phoneScreen.calls)
    }

    /// The followed scene is read at each call, so a screen that learns its
    /// scene after registering (a SwiftUI view model created before its
    /// window) filters from then on.
    @Test @MainActor func theFollowedSceneIsReadAtEachCall() {
        let rig = Rig()
        let screen = SceneSpy()
        rig.broadcaster.addListener(screen)
        rig.simulator.sceneWillConnect(secondWindow)
        screen.followedScene = phone
        rig.simulator.sceneWillConnect(phone)
        rig.simulator.sceneDidActivate(secondWindow)
        rig.simulator.sceneDidActivate(phone)

        #expect(
            screen.calls == [
                SceneCall(.willConnect, secondWindow), SceneCall(.willConnect, phone),
                SceneCall(.didActivate, phone),
            ])
    }

    /// A listener that registers late and follows one scene is told that
    /// scene's state only; one following a scene that is not connected is
    /// told nothing.
    @Test @MainActor func aLateListenerIsToldTheStateOfTheScenesItFollows() {
        let rig = Rig()
        rig.simulator.connect(phone)
        rig.simulator.connect(secondWindow)
        rig.simulator.enterBackground(secondWindow)

        let phoneScreen = SceneSpy(following: phone)
        let secondScreen = SceneSpy(following: secondWindow)
        let absentScreen = SceneSpy(following: airPlay)
        for spy in [phoneScreen, secondScreen, absentScreen] {
            rig.broadcaster.addListener(spy, receivingSticky: true)
        }

        #expect(phoneScreen.calls == [SceneCall(.didActivate, phone)])
        #expect(secondScreen.calls == [SceneCall(.didEnterBackground, secondWindow)])
        #expect(absentScreen.calls.isEmpty)
    }
}

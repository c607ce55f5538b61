import Broadcast
import BroadcastSystemBridge
import Foundation
import Testing

/// The replay to a late scene listener keeps the order in which the scenes
/// connected (or were first seen): a later event of a scene changes its
/// replayed event, not its place.
@Suite(.timeLimit(.minutes(1))) struct SceneReplayOrderTests {
    @Test @MainActor func aSceneThatChangesLaterKeepsItsPlace() {
        let rig = Rig()
        rig.simulator.connect(phone)
        rig.simulator.connect(secondWindow)
        rig.simulator.enterBackground(phone)  // the first scene changes last

        let late = SceneSpy()
        rig.broadcaster.addListener(late, receivingSticky: true)
        #expect(late.calls == [SceneCall(.didEnterBackground, phone), SceneCall(.didActivate, secondWindow)])
    }

    @Test @MainActor func scenesLearnedFromTheirEventsKeepTheOrderTheyWereFirstSeen() {
        let rig = Rig()
        // Both connected before the bridge: learned from their next events.
        rig.simulator.sceneWillDeactivate(airPlay)
        rig.simulator.sceneWillDeactivate(phone)
        rig.simulator.sceneDidActivate(airPlay)

        let late = SceneSpy()
        rig.broadcaster.addListener(late, receivingSticky: true)
        #expect(late.calls == [SceneCall(.didActivate, airPlay), SceneCall(.willDeactivate, phone)])
    }
}

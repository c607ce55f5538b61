import Broadcast
import BroadcastSystemBridge
import Foundation

/// Scenes the tests connect: a phone window, a second iPad window, an
/// AirPlay (external display) scene.
let phone = SceneIdentity(persistentIdentifier: "phone-window")
let secondWindow = SceneIdentity(persistentIdentifier: "second-window")
let airPlay = SceneIdentity(persistentIdentifier: "airplay-display")

/// One scene call a spy received.
struct SceneCall: Equatable, CustomStringConvertible {
    let event: SceneEvent
    let scene: SceneIdentity

    init(_ event: SceneEvent, _ scene: SceneIdentity) {
        self.event = event
        self.scene = scene
    }

    var description: String { "\(event)(\(scene.persistentIdentifier))" }
}

/// A main-actor screen whose scene conformance is isolated, following one
/// scene or all of them.
@MainActor
final class SceneSpy {
    var followedScene: SceneIdentity?
    private(set) var calls: [SceneCall] = []

    init(following scene: SceneIdentity? = nil) {
        followedScene = scene
    }

    fileprivate func record(_ event: SceneEvent, _ scene: SceneIdentity) {
        calls.append(SceneCall(event, scene))
    }
}

extension SceneSpy: @MainActor SceneListener {
    func sceneWillConnect(_ scene: SceneIdentity) { record(.willConnect, scene) }
    func sceneDidActivate(_ scene: SceneIdentity) { record(.didActivate, scene) }
    func sceneWillDeactivate(_ scene: SceneIdentity) { record(.willDeactivate, scene) }
    func sceneWillEnterForeground(_ scene: SceneIdentity) { record(.willEnterForeground, scene) }
    func sceneDidEnterBackground(_ scene: SceneIdentity) { record(.didEnterBackground, scene) }
    func sceneDidDisconnect(_ scene: SceneIdentity) { record(.didDisconnect, scene) }
}

/// A non-isolated model object that follows every scene, records each call
/// and whether it ran on the main queue.
final class SceneModelSpy: SceneListener, Sendable {
    let calls = Log<SceneCall>()
    let offMainCalls = Log<SceneCall>()
    var followedScene: SceneIdentity? { nil }

    init() { MainQueue.prepare() }

    private func record(_ event: SceneEvent, _ scene: SceneIdentity) {
        if !MainQueue.isCurrent { offMainCalls.append(SceneCall(event, scene)) }
        calls.append(SceneCall(event, scene))
    }

    func sceneWillConnect(_ scene: SceneIdentity) { record(.willConnect, scene) }
    func sceneDidActivate(_ scene: SceneIdentity) { record(.didActivate, scene) }
    func sceneWillDeactivate(_ scene: SceneIdentity) { record(.willDeactivate, scene) }
    func sceneWillEnterForeground(_ scene: SceneIdentity) { record(.willEnterForeground, scene) }
    func sceneDidEnterBackground(_ scene: SceneIdentity) { record(.didEnterBackground, scene) }
    func sceneDidDisconnect(_ scene: SceneIdentity) { record(.didDisconnect, scene) }
}

/// A main-actor model of the app's scenes, as a SwiftUI app keeps one: an
/// isolated `EventListener` of the bridge's sticky `ConnectedScenes`.
@MainActor
final class ConnectedScenesSpy {
    private(set) var received: [ConnectedScenes] = []
    var aggregateStates: [SceneState] { received.map(\.aggregateState) }
}

extension ConnectedScenesSpy: @MainActor EventListener {
    func receive(_ scenes: ConnectedScenes) { received.append(scenes) }
}

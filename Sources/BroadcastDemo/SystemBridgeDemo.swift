import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization

/// A downloader in the application-state pattern: it knows application states, not
/// UIKit or NotificationCenter, and cancels its request in the background.
nonisolated private final class SystemBridgeDemoDownloader: ApplicationStateListener, Sendable {
    private let request = Mutex<String?>(nil)

    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }

    func download(_ name: String) {
        request.withLock { $0 = name }
        report("Downloader       started \(name)")
    }

    func applicationDidEnterBackground() {
        let cancelled = request.withLock { request in
            defer { request = nil }
            return request
        }
        report("Downloader       in the background, " + (cancelled.map { "cancelled \($0)" } ?? "nothing to cancel"))
    }

    func applicationDidBecomeActive() { report("Downloader       active again") }
}

/// A compose screen that insets its content by what the keyboard covers.
@MainActor
private final class SystemBridgeDemoComposeScreen: KeyboardListener {
    let frame = CGRect(x: 0, y: 0, width: 390, height: 844)

    func keyboardWillShow(_ change: KeyboardChange) {
        let inset = change.coveredHeight(of: frame)
        let options = change.animationCurve?.animationOptionsRawValue.map { String($0, radix: 16) } ?? "none"
        report(
            "Compose          keyboard will show, inset \(inset) over \(change.animationDuration ?? 0)s (curve \(change.animationCurve?.rawValue ?? -1), options 0x\(options))"
        )
    }

    func keyboardWillHide(_ change: KeyboardChange) {
        report("Compose          keyboard will hide, inset \(change.coveredHeight(of: frame))")
    }
}

/// Narrates keyboard and application-state events travelling from a private
/// NotificationCenter, through a SystemNotificationBridge, to typed listeners.
@MainActor
func runSystemBridgeDemo() async {
    print("\n── System bridge: notifications in, typed calls out ──")
    let center = NotificationCenter()
    let broadcaster = Broadcaster()
    let bridge = SystemNotificationBridge(
        broadcaster: broadcaster, notificationCenter: center,
        initialApplicationState: .active)
    let simulator = SystemNotificationSimulator(center: center)
    let downloader = SystemBridgeDemoDownloader(broadcaster: broadcaster)
    let compose = SystemBridgeDemoComposeScreen()
    broadcaster.addListener(compose)

    let keyboard = CGRect(x: 0, y: 508, width: 390, height: 336)
    step("The simulator shows the keyboard")
    simulator.showKeyboard(endFrame: keyboard)
    report(
        "Bridge           keyboard \(bridge.keyboardState.endFrame.map { "visible at y=\($0.origin.y)" } ?? "hidden")")
    step("The simulator hides the keyboard")
    simulator.hideKeyboard(from: keyboard)

    step("A download starts (the Downloader knows nothing of UIKit or NotificationCenter)")
    downloader.download("photo-42.jpg")
    step("The app goes to the background (posted from another thread)")
    await Task.detached { simulator.enterBackground() }.value
    await broadcaster.waitForScheduledDeliveries()
    report("Bridge           application state \(bridge.applicationState.map { "\($0)" } ?? "unknown")")
    step("The app comes back")
    simulator.enterForeground()
    await broadcaster.waitForScheduledDeliveries()

    step("A screen joining late asks for the current state")
    let lateScreen = SystemBridgeDemoLateScreen()
    broadcaster.addListener(lateScreen, receivingSticky: true)

    runSceneSteps(broadcaster: broadcaster, simulator: simulator, bridge: bridge)
    bridge.stop()
    step("The bridge is stopped; posting again does nothing")
    simulator.enterBackground()
    await broadcaster.waitForScheduledDeliveries()
    report("(no listener was called)")
    withExtendedLifetime((downloader, compose, lateScreen)) {}
}

/// Two windows and an AirPlay display: a window's screen hears its own scene
/// only, and a render loop that starts late is told the state of every scene.
@MainActor
private func runSceneSteps(
    broadcaster: Broadcaster, simulator: SystemNotificationSimulator, bridge: SystemNotificationBridge
) {
    let editor = SceneIdentity(persistentIdentifier: "editor-window")
    let notes = SceneIdentity(persistentIdentifier: "notes-window")
    let display = SceneIdentity(persistentIdentifier: "airplay-display")
    let notesScreen = SystemBridgeDemoWindowScreen(following: notes)
    broadcaster.addListener(notesScreen)

    step("Two windows connect; the notes window goes to the background (its screen hears only its own scene)")
    simulator.connect(editor)
    simulator.connect(notes)
    simulator.enterBackground(notes)
    step("An AirPlay display connects: it enters the foreground but never activates")
    simulator.sceneWillConnect(display)
    simulator.sceneWillEnterForeground(display)
    step("The editor window goes to the background too")
    simulator.enterBackground(editor)
    report("Bridge           app's scenes \(bridge.connectedScenes.aggregateState) (the AirPlay display still shows)")

    step("A render loop starting late asks for the connected scenes")
    let renderLoop = SystemBridgeDemoRenderLoop()
    broadcaster.addListener(renderLoop, receivingSticky: true)
    withExtendedLifetime((notesScreen, renderLoop)) {}
}

/// A window's screen: it follows its own scene only.
@MainActor
private final class SystemBridgeDemoWindowScreen {
    let followedScene: SceneIdentity?
    init(following scene: SceneIdentity) { followedScene = scene }
}

extension SystemBridgeDemoWindowScreen: @MainActor SceneListener {
    func sceneDidActivate(_ scene: SceneIdentity) { report("Notes screen     \(scene.persistentIdentifier) active") }
    func sceneDidEnterBackground(_ scene: SceneIdentity) {
        report("Notes screen     \(scene.persistentIdentifier) in the background, draft saved")
    }
}

/// Runs while any scene is active; learns the scenes from the bridge's
/// sticky `ConnectedScenes`.
@MainActor
private final class SystemBridgeDemoRenderLoop {}

extension SystemBridgeDemoRenderLoop: @MainActor EventListener {
    func receive(_ scenes: ConnectedScenes) {
        let states = scenes.states.map { "\($0.key.persistentIdentifier) \($0.value)" }.sorted()
        report(
            "Render loop      \(states.joined(separator: ", ")): app's scenes \(scenes.aggregateState), "
                + (scenes.aggregateState == .active ? "running" : "paused"))
    }
}

/// A screen that registers after the app became active.
@MainActor
private final class SystemBridgeDemoLateScreen: @MainActor ApplicationStateListener {
    func applicationDidBecomeActive() { report("Late screen      told the app is active") }
}

import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization

/// A downloader in the style of seed 003: it knows application states, not
/// UIKit or NotificationCenter, and cancels its request in the background.
private final class SystemBridgeDemoDownloader: ApplicationStateListener, Sendable {
    private let request = Mutex<String?>(nil)

    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }

    func download(_ name: String) {
        request.withLock { $0 = name }
        print("  downloader: started \(name)")
    }

    func applicationDidEnterBackground() {
        let cancelled = request.withLock { request in
            defer { request = nil }
            return request
        }
        print("  downloader: in the background, " + (cancelled.map { "cancelled \($0)" } ?? "nothing to cancel"))
    }

    func applicationDidBecomeActive() { print("  downloader: active again") }
}

/// A compose screen that insets its content by what the keyboard covers.
@MainActor
private final class SystemBridgeDemoComposeScreen: KeyboardListener {
    let frame = CGRect(x: 0, y: 0, width: 390, height: 844)

    func keyboardWillShow(_ change: KeyboardChange) {
        let inset = change.coveredHeight(of: frame)
        let options = change.animationCurve?.animationOptionsRawValue.map { String($0, radix: 16) } ?? "none"
        print("  compose: keyboard will show, inset \(inset) over \(change.animationDuration ?? 0)s (curve \(change.animationCurve?.rawValue ?? -1), options 0x\(options))")
    }

    func keyboardWillHide(_ change: KeyboardChange) {
        print("  compose: keyboard will hide, inset \(change.coveredHeight(of: frame))")
    }
}

/// Narrates keyboard and application-state events travelling from a private
/// NotificationCenter, through a SystemNotificationBridge, to typed listeners.
@MainActor
func runSystemBridgeDemo() async {
    print("== System bridge: notifications in, typed calls out ==")
    let center = NotificationCenter()
    let broadcaster = Broadcaster()
    let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center,
                                          initialApplicationState: .active)
    let simulator = SystemNotificationSimulator(center: center)
    let downloader = SystemBridgeDemoDownloader(broadcaster: broadcaster)
    let compose = SystemBridgeDemoComposeScreen()
    broadcaster.addListener(compose)

    let keyboard = CGRect(x: 0, y: 508, width: 390, height: 336)
    print("simulator: keyboard shows")
    simulator.showKeyboard(endFrame: keyboard)
    print("  bridge: keyboard \(bridge.keyboardState.endFrame.map { "visible at y=\($0.origin.y)" } ?? "hidden")")
    print("simulator: keyboard hides")
    simulator.hideKeyboard(from: keyboard)

    downloader.download("photo-42.jpg")
    print("simulator: app goes to the background (posted from another thread)")
    await Task.detached { simulator.enterBackground() }.value
    await broadcaster.waitForScheduledDeliveries()
    print("  bridge: application state \(bridge.applicationState.map { "\($0)" } ?? "unknown")")
    print("simulator: app comes back")
    simulator.enterForeground()
    await broadcaster.waitForScheduledDeliveries()

    print("a screen joining late asks for the current state:")
    let lateScreen = SystemBridgeDemoLateScreen()
    bridge.addListener(lateScreen, receivingCurrentState: true)
    bridge.stop()
    print("bridge stopped; posting again does nothing:")
    simulator.enterBackground()
    await broadcaster.waitForScheduledDeliveries()
    withExtendedLifetime((downloader, compose, lateScreen)) {}
    print("== end of system bridge demo ==")
}

/// A screen that registers after the app became active.
@MainActor
private final class SystemBridgeDemoLateScreen: @MainActor ApplicationStateListener {
    func applicationDidBecomeActive() { print("  late screen: told the app is active") }
}

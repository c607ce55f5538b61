import Broadcast
import BroadcastSystemBridge
import Dispatch
import Foundation
import Synchronization

/// Tells whether code runs on the main queue (where the main actor runs).
///
/// `Thread.isMainThread` is unreliable on Linux inside main-actor code.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Call once on the main actor before the check is needed.
    static func prepare() { _ = key }
}

/// A non-isolated application-state spy: records every call, and whether it
/// ran on the main queue.
final class ApplicationSpy: ApplicationStateListener, Sendable {
    private let log = Mutex<[ApplicationEvent]>([])
    private let offMainCalls = Atomic<Int>(0)

    init() { MainQueue.prepare() }

    var events: [ApplicationEvent] { log.withLock { $0 } }
    var callsOffMain: Int { offMainCalls.load(ordering: .relaxed) }

    private func record(_ event: ApplicationEvent) {
        if !MainQueue.isCurrent { offMainCalls.add(1, ordering: .relaxed) }
        log.withLock { $0.append(event) }
    }

    func applicationDidFinishLaunching() { record(.didFinishLaunching) }
    func applicationDidBecomeActive() { record(.didBecomeActive) }
    func applicationWillResignActive() { record(.willResignActive) }
    func applicationDidEnterBackground() { record(.didEnterBackground) }
    func applicationWillEnterForeground() { record(.willEnterForeground) }
    func applicationWillTerminate() { record(.willTerminate) }
    func applicationDidReceiveMemoryWarning() { record(.didReceiveMemoryWarning) }
}

/// A main-actor keyboard spy.
@MainActor
final class KeyboardSpy: KeyboardListener {
    struct Call: Equatable {
        let event: KeyboardEvent
        let change: KeyboardChange
    }

    private(set) var calls: [Call] = []
    var events: [KeyboardEvent] { calls.map(\.event) }

    init() {}

    func keyboardWillShow(_ change: KeyboardChange) { calls.append(Call(event: .willShow, change: change)) }
    func keyboardDidShow(_ change: KeyboardChange) { calls.append(Call(event: .didShow, change: change)) }
    func keyboardWillHide(_ change: KeyboardChange) { calls.append(Call(event: .willHide, change: change)) }
    func keyboardDidHide(_ change: KeyboardChange) { calls.append(Call(event: .didHide, change: change)) }
    func keyboardWillChangeFrame(_ change: KeyboardChange) {
        calls.append(Call(event: .willChangeFrame, change: change))
    }
    func keyboardDidChangeFrame(_ change: KeyboardChange) { calls.append(Call(event: .didChangeFrame, change: change)) }
}

/// A main-actor screen whose application-state conformance is isolated.
@MainActor
final class ScreenSpy {
    private(set) var events: [ApplicationEvent] = []
    init() {}
}

extension ScreenSpy: @MainActor ApplicationStateListener {
    func applicationDidBecomeActive() { events.append(.didBecomeActive) }
    func applicationDidEnterBackground() { events.append(.didEnterBackground) }
}

/// A bridge on a private center, with its simulator.
struct Rig {
    let center = NotificationCenter()
    let broadcaster = Broadcaster()
    let bridge: SystemNotificationBridge
    let simulator: SystemNotificationSimulator

    init(initialApplicationState: ApplicationState? = nil) {
        bridge = SystemNotificationBridge(
            broadcaster: broadcaster, notificationCenter: center,
            initialApplicationState: initialApplicationState)
        simulator = SystemNotificationSimulator(center: center)
    }
}

let keyboardFrame = CGRect(x: 0, y: 500, width: 400, height: 300)
let screenFrame = CGRect(x: 0, y: 0, width: 400, height: 800)

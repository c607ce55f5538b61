import BroadcastSystemBridge
import Foundation
import Testing

@Suite struct SystemEventMappingTests {
    /// On Linux the bridge must use the raw UIKit names, spelled exactly as
    /// the Objective-C symbols (listed independently here).
    @Test func linuxNamesAreTheRawUIKitNames() {
        #if os(Linux)
            #expect(
                KeyboardEvent.allCases.map(\.notificationName.rawValue) == [
                    "UIKeyboardWillShowNotification", "UIKeyboardDidShowNotification",
                    "UIKeyboardWillHideNotification", "UIKeyboardDidHideNotification",
                    "UIKeyboardWillChangeFrameNotification", "UIKeyboardDidChangeFrameNotification",
                ])
            #expect(
                ApplicationEvent.allCases.map(\.notificationName.rawValue) == [
                    "UIApplicationDidFinishLaunchingNotification", "UIApplicationDidBecomeActiveNotification",
                    "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
                    "UIApplicationWillEnterForegroundNotification", "UIApplicationWillTerminateNotification",
                    "UIApplicationDidReceiveMemoryWarningNotification",
                ])
        #endif
    }

    @Test func namesAreDistinct() {
        let names = KeyboardEvent.allCases.map(\.notificationName) + ApplicationEvent.allCases.map(\.notificationName)
        #expect(Set(names).count == 13)
    }

    @Test(arguments: ApplicationEvent.allCases)
    func applicationNotificationMapsToItsEvent(event: ApplicationEvent) {
        let notification = Notification(name: event.notificationName, object: NSObject(), userInfo: ["junk": 1])
        #expect(SystemEvent(notification: notification) == .application(event))
        #expect(SystemEvent.application(event).notificationName == event.notificationName)
    }

    @Test(arguments: KeyboardEvent.allCases)
    func keyboardNotificationMapsToItsEventWithParsedChange(event: KeyboardEvent) {
        let change = KeyboardChange(
            beginFrame: .zero, endFrame: keyboardFrame, animationDuration: 0.3,
            animationCurve: .easeOut, isLocal: false)
        let notification = SystemNotificationSimulator.notification(event, change)
        #expect(notification.name == event.notificationName)
        #expect(SystemEvent(notification: notification) == .keyboard(event, change))
    }

    @Test func otherNamesMapToNothing() {
        #expect(SystemEvent(notification: Notification(name: Notification.Name("UIKeyboardWillShow"))) == nil)
        #expect(
            SystemEvent(
                notification: Notification(name: Notification.Name("UIApplicationSignificantTimeChangeNotification")))
                == nil)
    }

    @Test func stateEventsDefineTheApplicationState() {
        let states = ApplicationEvent.allCases.map { ($0, $0.resultingState) }
        let defined = states.filter { $0.1 != nil }.map { "\($0.0):\($0.1!)" }
        #expect(defined == ["didBecomeActive:active", "willResignActive:inactive", "didEnterBackground:background"])
    }

    @Test func keyboardStateFollowsShowAndHideButNotStrayFrameChanges() {
        let shown = KeyboardChange(endFrame: keyboardFrame)
        let below = KeyboardChange(endFrame: CGRect(x: 0, y: 800, width: 400, height: 300))
        let moved = KeyboardChange(endFrame: CGRect(x: 0, y: 450, width: 400, height: 350))
        // Exercised through a bridge so the transition function is the real one.
        let rig = Rig()
        rig.simulator.post(.didChangeFrame, below)
        #expect(rig.bridge.keyboardState == .hidden)  // a frame change does not show a hidden keyboard
        rig.simulator.post(.willShow, shown)
        #expect(rig.bridge.keyboardState == .visible(shown))
        rig.simulator.post(.didChangeFrame, moved)
        #expect(rig.bridge.keyboardState == .visible(moved))
        rig.simulator.post(.didChangeFrame, KeyboardChange())  // no end frame: keeps the last one
        #expect(rig.bridge.keyboardState == .visible(moved))
        rig.simulator.hideKeyboard(from: moved.endFrame!)  // ends with did-change-frame below the screen
        #expect(rig.bridge.keyboardState == .hidden)
    }
}

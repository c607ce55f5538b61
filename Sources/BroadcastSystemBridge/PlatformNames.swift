// Platform constants only: notification names, userInfo keys, the one
// platform-specific way to box a CGRect in an NSValue, and the one way to read
// a UIScene's identity. Everything that interprets them is
// platform-independent and tested on Linux.
//
// Names are spelled as raw strings on every platform. Each equals the name of
// the Objective-C symbol, which is also the raw value of UIKit's and AppKit's
// constants, so observing the string is observing the system notification;
// and it keeps this file free of references to `UIResponder`, `UIApplication`
// and `NSApplication` members, whose actor isolation has varied between SDKs
// (a `@MainActor` constant cannot initialise a non-isolated `static let`).
// Where a platform has no such notification (keyboard on macOS, tvOS and
// watchOS; background, foreground and memory warning on macOS), the system
// never posts the name, but SystemNotificationSimulator does, so listeners
// stay testable everywhere.
import Foundation

#if canImport(UIKit)
    import UIKit
#endif

/// The notification names and `userInfo` keys the bridge reads, per platform.
enum PlatformNames {
    // MARK: Keyboard (posted by UIKit on iOS, Mac Catalyst and visionOS)

    static let keyboardWillShow = Notification.Name("UIKeyboardWillShowNotification")
    static let keyboardDidShow = Notification.Name("UIKeyboardDidShowNotification")
    static let keyboardWillHide = Notification.Name("UIKeyboardWillHideNotification")
    static let keyboardDidHide = Notification.Name("UIKeyboardDidHideNotification")
    static let keyboardWillChangeFrame = Notification.Name("UIKeyboardWillChangeFrameNotification")
    static let keyboardDidChangeFrame = Notification.Name("UIKeyboardDidChangeFrameNotification")
    static let keyboardFrameBeginKey = "UIKeyboardFrameBeginUserInfoKey"
    static let keyboardFrameEndKey = "UIKeyboardFrameEndUserInfoKey"
    static let keyboardAnimationDurationKey = "UIKeyboardAnimationDurationUserInfoKey"
    static let keyboardAnimationCurveKey = "UIKeyboardAnimationCurveUserInfoKey"
    static let keyboardIsLocalKey = "UIKeyboardIsLocalUserInfoKey"

    // MARK: Application state

    #if os(macOS) && !targetEnvironment(macCatalyst)
        // AppKit, where the meaning matches (see the "Keyboard and App State" article, "Platforms and names"). Hiding an
        // app is not mapped to background: a hidden Mac app keeps running.
        static let didFinishLaunching = Notification.Name("NSApplicationDidFinishLaunchingNotification")
        static let didBecomeActive = Notification.Name("NSApplicationDidBecomeActiveNotification")
        static let willResignActive = Notification.Name("NSApplicationWillResignActiveNotification")
        static let willTerminate = Notification.Name("NSApplicationWillTerminateNotification")
    #else
        // UIKit (iOS, Mac Catalyst, tvOS, visionOS; watchOS posts none of
        // them), and the same names elsewhere for the simulator.
        static let didFinishLaunching = Notification.Name("UIApplicationDidFinishLaunchingNotification")
        static let didBecomeActive = Notification.Name("UIApplicationDidBecomeActiveNotification")
        static let willResignActive = Notification.Name("UIApplicationWillResignActiveNotification")
        static let willTerminate = Notification.Name("UIApplicationWillTerminateNotification")
    #endif
    static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
    static let didReceiveMemoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")

    // MARK: Scenes (posted by UIKit on iOS, Mac Catalyst, tvOS and visionOS, with the `UIScene` as object)

    static let sceneWillConnect = Notification.Name("UISceneWillConnectNotification")
    static let sceneDidActivate = Notification.Name("UISceneDidActivateNotification")
    static let sceneWillDeactivate = Notification.Name("UISceneWillDeactivateNotification")
    static let sceneWillEnterForeground = Notification.Name("UISceneWillEnterForegroundNotification")
    static let sceneDidEnterBackground = Notification.Name("UISceneDidEnterBackgroundNotification")
    static let sceneDidDisconnect = Notification.Name("UISceneDidDisconnectNotification")

    #if canImport(UIKit) && !os(watchOS)
        /// The persistent identifier of the session of the `UIScene` in
        /// `object`, if any.
        ///
        /// `UIScene` is main-actor isolated, and UIKit posts its
        /// notifications on the main thread; elsewhere there is nothing to read.
        static func scenePersistentIdentifier(of object: Any?) -> String? {
            guard let scene = object as? UIScene, Thread.isMainThread else { return nil }
            return MainActor.assumeIsolated { scene.session.persistentIdentifier }
        }
    #else
        /// No `UIScene` here: only ``SystemNotificationSimulator`` posts scene
        /// notifications, with a ``SceneIdentity`` as object.
        static func scenePersistentIdentifier(of object: Any?) -> String? { nil }
    #endif

    // MARK: CGRect in NSValue

    #if canImport(UIKit)
        static func value(of rect: CGRect) -> NSValue { NSValue(cgRect: rect) }
        /// Only call on a value whose `objCType` is ``rectEncoding``.
        static func rect(in value: NSValue) -> CGRect { value.cgRectValue }
    #else
        static func value(of rect: CGRect) -> NSValue { NSValue(rect: rect) }
        /// Only call on a value whose `objCType` is ``rectEncoding``.
        static func rect(in value: NSValue) -> CGRect { value.rectValue }
    #endif

    /// The type encoding of an `NSValue` that holds a `CGRect` on this
    /// platform, read from a real one rather than spelled out.
    static let rectEncoding: String = String(cString: value(of: .zero).objCType)
}

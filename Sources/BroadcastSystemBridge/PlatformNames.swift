// Platform constants only: notification names, userInfo keys and the one
// platform-specific way to box a CGRect in an NSValue. Everything that
// interprets them is platform-independent and tested on Linux.
//
// Every raw UIKit string below equals the name of the Objective-C symbol, which
// is also the constant's raw value on Apple platforms. So where a platform has
// no such notification (keyboard on macOS, tvOS and watchOS; application state
// on watchOS; background, foreground and memory warning on macOS) or no UIKit
// at all (Linux), the bridge observes the raw UIKit name: the system never
// posts it there, but SystemNotificationSimulator does, so listeners stay
// testable everywhere.
import Foundation

#if canImport(UIKit)
    import UIKit
#elseif os(macOS)
    import AppKit
#endif

/// The notification names and `userInfo` keys the bridge reads, per platform.
enum PlatformNames {
    // MARK: Keyboard (UIKit on iOS, Mac Catalyst and visionOS only)

    #if os(iOS) || os(visionOS)
        static let keyboardWillShow = UIResponder.keyboardWillShowNotification
        static let keyboardDidShow = UIResponder.keyboardDidShowNotification
        static let keyboardWillHide = UIResponder.keyboardWillHideNotification
        static let keyboardDidHide = UIResponder.keyboardDidHideNotification
        static let keyboardWillChangeFrame = UIResponder.keyboardWillChangeFrameNotification
        static let keyboardDidChangeFrame = UIResponder.keyboardDidChangeFrameNotification
        static let keyboardFrameBeginKey: String = UIResponder.keyboardFrameBeginUserInfoKey
        static let keyboardFrameEndKey: String = UIResponder.keyboardFrameEndUserInfoKey
        static let keyboardAnimationDurationKey: String = UIResponder.keyboardAnimationDurationUserInfoKey
        static let keyboardAnimationCurveKey: String = UIResponder.keyboardAnimationCurveUserInfoKey
        static let keyboardIsLocalKey: String = UIResponder.keyboardIsLocalUserInfoKey
    #else
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
    #endif

    // MARK: Application state

    #if os(iOS) || os(tvOS) || os(visionOS)
        static let didFinishLaunching = UIApplication.didFinishLaunchingNotification
        static let didBecomeActive = UIApplication.didBecomeActiveNotification
        static let willResignActive = UIApplication.willResignActiveNotification
        static let didEnterBackground = UIApplication.didEnterBackgroundNotification
        static let willEnterForeground = UIApplication.willEnterForegroundNotification
        static let willTerminate = UIApplication.willTerminateNotification
        static let didReceiveMemoryWarning = UIApplication.didReceiveMemoryWarningNotification
    #elseif os(macOS)
        // AppKit, where the meaning matches (see Docs/SystemBridge.md). Hiding an
        // app is not mapped to background: a hidden Mac app keeps running.
        static let didFinishLaunching = NSApplication.didFinishLaunchingNotification
        static let didBecomeActive = NSApplication.didBecomeActiveNotification
        static let willResignActive = NSApplication.willResignActiveNotification
        static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
        static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
        static let willTerminate = NSApplication.willTerminateNotification
        static let didReceiveMemoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    #else
        static let didFinishLaunching = Notification.Name("UIApplicationDidFinishLaunchingNotification")
        static let didBecomeActive = Notification.Name("UIApplicationDidBecomeActiveNotification")
        static let willResignActive = Notification.Name("UIApplicationWillResignActiveNotification")
        static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
        static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
        static let willTerminate = Notification.Name("UIApplicationWillTerminateNotification")
        static let didReceiveMemoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
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

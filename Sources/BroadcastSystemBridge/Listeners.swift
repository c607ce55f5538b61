import Foundation

/// Receives the system keyboard's show, hide and frame-change events as typed
/// calls, on the main actor.
///
/// Register with a ``/Broadcast/Broadcaster`` (`broadcaster.addListener(self)`, or
/// `broadcaster.addListener(self, receivingSticky: true)` to be told at once
/// whether the keyboard is up). A ``SystemNotificationBridge``
/// feeding that broadcaster delivers every keyboard notification it observes.
/// Every method has an empty default implementation: write only those you need.
///
/// ```swift
/// @MainActor final class ComposeViewController: KeyboardListener {
///     func keyboardWillShow(_ change: KeyboardChange) {
///         bottomInset = change.coveredHeight(of: viewFrameInScreen)
///     }
/// }
/// ```
@MainActor
public protocol KeyboardListener: AnyObject {
    /// The keyboard is about to appear (`UIKeyboardWillShowNotification`).
    func keyboardWillShow(_ change: KeyboardChange)
    /// The keyboard has appeared (`UIKeyboardDidShowNotification`).
    func keyboardDidShow(_ change: KeyboardChange)
    /// The keyboard is about to disappear (`UIKeyboardWillHideNotification`).
    func keyboardWillHide(_ change: KeyboardChange)
    /// The keyboard has disappeared (`UIKeyboardDidHideNotification`).
    func keyboardDidHide(_ change: KeyboardChange)
    /// The keyboard's frame is about to change
    /// (`UIKeyboardWillChangeFrameNotification`); also sent around show and
    /// hide, and alone for floating, undocked or split keyboards.
    func keyboardWillChangeFrame(_ change: KeyboardChange)
    /// The keyboard's frame has changed (`UIKeyboardDidChangeFrameNotification`).
    func keyboardDidChangeFrame(_ change: KeyboardChange)
}

extension KeyboardListener {
    /// Does nothing; implement it to react.
    public func keyboardWillShow(_ change: KeyboardChange) {}
    /// Does nothing; implement it to react.
    public func keyboardDidShow(_ change: KeyboardChange) {}
    /// Does nothing; implement it to react.
    public func keyboardWillHide(_ change: KeyboardChange) {}
    /// Does nothing; implement it to react.
    public func keyboardDidHide(_ change: KeyboardChange) {}
    /// Does nothing; implement it to react.
    public func keyboardWillChangeFrame(_ change: KeyboardChange) {}
    /// Does nothing; implement it to react.
    public func keyboardDidChangeFrame(_ change: KeyboardChange) {}
}

/// Receives the application's life-cycle events as typed calls.
///
/// Not actor-isolated, so a model object such as a downloader can conform
/// without becoming UI code, and be created and tested from any context:
///
/// ```swift
/// nonisolated final class Downloader: ApplicationStateListener, Sendable {
///     init(broadcaster: Broadcaster) { broadcaster.addListener(self) }  // no actor: must be Sendable
///     func applicationDidEnterBackground() { cancelCurrentRequest() }
/// }
/// ```
///
/// A ``SystemNotificationBridge`` delivers these calls on the main actor,
/// whatever thread posted the notification, so a non-isolated listener is
/// called on the main actor too. UI code can conform with an isolated
/// conformance: `extension FeedViewController: @MainActor ApplicationStateListener`.
/// Every method has an empty default implementation.
public protocol ApplicationStateListener: AnyObject {
    /// Launching finished (`UIApplicationDidFinishLaunchingNotification`;
    /// `NSApplicationDidFinishLaunchingNotification` on macOS).
    func applicationDidFinishLaunching()
    /// The application became active (`UIApplicationDidBecomeActiveNotification`;
    /// `NSApplicationDidBecomeActiveNotification` on macOS).
    func applicationDidBecomeActive()
    /// The application is about to stop being active
    /// (`UIApplicationWillResignActiveNotification`;
    /// `NSApplicationWillResignActiveNotification` on macOS).
    func applicationWillResignActive()
    /// The application moved to the background
    /// (`UIApplicationDidEnterBackgroundNotification`; no macOS equivalent).
    func applicationDidEnterBackground()
    /// The application is about to leave the background
    /// (`UIApplicationWillEnterForegroundNotification`; no macOS equivalent).
    func applicationWillEnterForeground()
    /// The application is about to terminate
    /// (`UIApplicationWillTerminateNotification`;
    /// `NSApplicationWillTerminateNotification` on macOS).
    func applicationWillTerminate()
    /// The system is low on memory
    /// (`UIApplicationDidReceiveMemoryWarningNotification`; no macOS equivalent).
    func applicationDidReceiveMemoryWarning()
}

extension ApplicationStateListener {
    /// Does nothing; implement it to react.
    public func applicationDidFinishLaunching() {}
    /// Does nothing; implement it to react.
    public func applicationDidBecomeActive() {}
    /// Does nothing; implement it to react.
    public func applicationWillResignActive() {}
    /// Does nothing; implement it to react.
    public func applicationDidEnterBackground() {}
    /// Does nothing; implement it to react.
    public func applicationWillEnterForeground() {}
    /// Does nothing; implement it to react.
    public func applicationWillTerminate() {}
    /// Does nothing; implement it to react.
    public func applicationDidReceiveMemoryWarning() {}
}

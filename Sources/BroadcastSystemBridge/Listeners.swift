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

/// Receives the scene life-cycle events of one scene, or of every scene, as
/// typed calls that name the scene.
///
/// ``followedScene`` says which: `nil` follows every scene; a
/// ``SceneIdentity`` follows that scene alone, and the calls about other
/// scenes are not made. The requirement has no default, so that each
/// listener says which scenes it follows: a per-scene object that forgot to
/// filter would react to every other window's life cycle.
///
/// ```swift
/// @MainActor final class DocumentScreen {
///     let followedScene: SceneIdentity?  // its own scene only
///     init(scene: SceneIdentity, broadcaster: Broadcaster) {
///         followedScene = scene
///         broadcaster.addListener(self, receivingSticky: true)
///     }
/// }
///
/// extension DocumentScreen: @MainActor SceneListener {
///     func sceneDidEnterBackground(_ scene: SceneIdentity) { saveDraft() }
/// }
/// ```
///
/// Not actor-isolated, like ``ApplicationStateListener``: a model object can
/// conform, and UI code conforms with an isolated conformance, as above
/// (inferred for a main-actor class in a module whose default isolation is
/// the main actor). A ``SystemNotificationBridge`` delivers the calls on the main actor,
/// whatever thread posted the notification, and reads ``followedScene``
/// there, at each call. Registered with `receivingSticky: true`, a listener
/// is told the state of each connected scene it follows at once, as the
/// latest event that scene got. Every method has an empty default
/// implementation.
public protocol SceneListener: AnyObject {
    /// The scene whose events this listener receives; `nil` for every
    /// scene's.
    var followedScene: SceneIdentity? { get }

    /// UIKit is adding the scene to the app (`UISceneWillConnectNotification`):
    /// a new scene, or one that had disconnected, connecting again.
    func sceneWillConnect(_ scene: SceneIdentity)
    /// The scene is on screen and receives events (`UISceneDidActivateNotification`).
    func sceneDidActivate(_ scene: SceneIdentity)
    /// The scene is about to stop receiving events (`UISceneWillDeactivateNotification`).
    func sceneWillDeactivate(_ scene: SceneIdentity)
    /// The scene is about to run in the foreground
    /// (`UISceneWillEnterForegroundNotification`). A scene that never
    /// receives events, such as an AirPlay or external-display scene, stops
    /// here, short of did activate.
    func sceneWillEnterForeground(_ scene: SceneIdentity)
    /// The scene is no longer on screen (`UISceneDidEnterBackgroundNotification`).
    func sceneDidEnterBackground(_ scene: SceneIdentity)
    /// UIKit removed the scene from the app (`UISceneDidDisconnectNotification`),
    /// which may connect it again later with the same identity.
    func sceneDidDisconnect(_ scene: SceneIdentity)
}

extension SceneListener {
    /// Does nothing; implement it to react.
    public func sceneWillConnect(_ scene: SceneIdentity) {}
    /// Does nothing; implement it to react.
    public func sceneDidActivate(_ scene: SceneIdentity) {}
    /// Does nothing; implement it to react.
    public func sceneWillDeactivate(_ scene: SceneIdentity) {}
    /// Does nothing; implement it to react.
    public func sceneWillEnterForeground(_ scene: SceneIdentity) {}
    /// Does nothing; implement it to react.
    public func sceneDidEnterBackground(_ scene: SceneIdentity) {}
    /// Does nothing; implement it to react.
    public func sceneDidDisconnect(_ scene: SceneIdentity) {}
}

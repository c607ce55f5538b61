import Foundation

/// Posts realistic keyboard, application and scene notifications to a
/// `NotificationCenter`, so apps can test their listeners on any platform,
/// without UIKit.
///
/// Names are those a ``SystemNotificationBridge`` observes on the platform;
/// keyboard `userInfo` has UIKit's shape (frames as `NSValue`, numbers as
/// `NSNumber`); a scene notification's object is the scene's
/// ``SceneIdentity``, where UIKit puts the `UIScene`. Posting is synchronous;
/// the bridge then delivers on the main actor, so await
/// `broadcaster.waitForScheduledDeliveries()` before checking listeners.
///
/// ```swift
/// let center = NotificationCenter()
/// let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
/// let simulator = SystemNotificationSimulator(center: center)
/// simulator.enterBackground()
/// await broadcaster.waitForScheduledDeliveries()
/// ```
public struct SystemNotificationSimulator: Sendable {
    /// The center notifications are posted to.
    public let center: NotificationCenter

    /// The duration UIKit uses for keyboard animations.
    public static let defaultKeyboardDuration: TimeInterval = 0.25
    /// The curve UIKit's keyboard really sends (7, unnamed).
    public static let defaultKeyboardCurve = KeyboardChange.AnimationCurve(rawValue: 7)

    /// Creates a simulator posting to `center`.
    public init(center: NotificationCenter) {
        self.center = center
    }

    // MARK: - Single notifications

    /// Posts the notification for `event` with `change` as its `userInfo`.
    public func post(_ event: KeyboardEvent, _ change: KeyboardChange) {
        center.post(Self.notification(event, change))
    }

    /// Posts the notification for `event` (no object, no `userInfo`).
    public func post(_ event: ApplicationEvent) {
        center.post(Self.notification(event))
    }

    /// The notification UIKit would post for `event` with `change`.
    public static func notification(_ event: KeyboardEvent, _ change: KeyboardChange) -> Notification {
        Notification(name: event.notificationName, object: nil, userInfo: change.userInfo)
    }

    /// The notification the system would post for `event`.
    public static func notification(_ event: ApplicationEvent) -> Notification {
        Notification(name: event.notificationName, object: nil, userInfo: nil)
    }

    /// Posts the notification for `event` about `scene`.
    public func post(_ event: SceneEvent, for scene: SceneIdentity) {
        center.post(Self.notification(event, for: scene))
    }

    /// The notification for `event` about `scene`: `scene` as its object (a
    /// bridge reads a `UIScene`'s identity from the object of UIKit's), no
    /// `userInfo`.
    public static func notification(_ event: SceneEvent, for scene: SceneIdentity) -> Notification {
        Notification(name: event.notificationName, object: scene, userInfo: nil)
    }

    /// Posts `UIKeyboardWillShowNotification` for a keyboard sliding up from
    /// below to `endFrame`.
    public func keyboardWillShow(
        endFrame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.willShow, Self.showing(endFrame, duration, curve))
    }

    /// Posts `UIKeyboardDidShowNotification` for a keyboard now at `endFrame`.
    public func keyboardDidShow(
        endFrame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.didShow, Self.showing(endFrame, duration, curve))
    }

    /// Posts `UIKeyboardWillHideNotification` for a keyboard at `frame`
    /// sliding down out of sight.
    public func keyboardWillHide(
        from frame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.willHide, Self.hiding(frame, duration, curve))
    }

    /// Posts `UIKeyboardDidHideNotification` for a keyboard that was at `frame`.
    public func keyboardDidHide(
        from frame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.didHide, Self.hiding(frame, duration, curve))
    }

    /// Posts `UIKeyboardWillChangeFrameNotification` for a keyboard moving
    /// from `beginFrame` to `endFrame`.
    public func keyboardWillChangeFrame(
        from beginFrame: CGRect,
        to endFrame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.willChangeFrame, Self.moving(beginFrame, endFrame, duration, curve))
    }

    /// Posts `UIKeyboardDidChangeFrameNotification` for a keyboard that moved
    /// from `beginFrame` to `endFrame`.
    public func keyboardDidChangeFrame(
        from beginFrame: CGRect,
        to endFrame: CGRect,
        duration: TimeInterval = defaultKeyboardDuration,
        curve: KeyboardChange.AnimationCurve = defaultKeyboardCurve
    ) {
        post(.didChangeFrame, Self.moving(beginFrame, endFrame, duration, curve))
    }

    /// Posts `UIApplicationDidFinishLaunchingNotification` (or AppKit's on macOS).
    public func applicationDidFinishLaunching() { post(.didFinishLaunching) }
    /// Posts `UIApplicationDidBecomeActiveNotification` (or AppKit's on macOS).
    public func applicationDidBecomeActive() { post(.didBecomeActive) }
    /// Posts `UIApplicationWillResignActiveNotification` (or AppKit's on macOS).
    public func applicationWillResignActive() { post(.willResignActive) }
    /// Posts `UIApplicationDidEnterBackgroundNotification`.
    public func applicationDidEnterBackground() { post(.didEnterBackground) }
    /// Posts `UIApplicationWillEnterForegroundNotification`.
    public func applicationWillEnterForeground() { post(.willEnterForeground) }
    /// Posts `UIApplicationWillTerminateNotification` (or AppKit's on macOS).
    public func applicationWillTerminate() { post(.willTerminate) }
    /// Posts `UIApplicationDidReceiveMemoryWarningNotification`.
    public func applicationDidReceiveMemoryWarning() { post(.didReceiveMemoryWarning) }

    /// Posts `UISceneWillConnectNotification` for `scene`.
    public func sceneWillConnect(_ scene: SceneIdentity) { post(.willConnect, for: scene) }
    /// Posts `UISceneDidActivateNotification` for `scene`.
    public func sceneDidActivate(_ scene: SceneIdentity) { post(.didActivate, for: scene) }
    /// Posts `UISceneWillDeactivateNotification` for `scene`.
    public func sceneWillDeactivate(_ scene: SceneIdentity) { post(.willDeactivate, for: scene) }
    /// Posts `UISceneWillEnterForegroundNotification` for `scene`.
    public func sceneWillEnterForeground(_ scene: SceneIdentity) { post(.willEnterForeground, for: scene) }
    /// Posts `UISceneDidEnterBackgroundNotification` for `scene`.
    public func sceneDidEnterBackground(_ scene: SceneIdentity) { post(.didEnterBackground, for: scene) }
    /// Posts `UISceneDidDisconnectNotification` for `scene`.
    public func sceneDidDisconnect(_ scene: SceneIdentity) { post(.didDisconnect, for: scene) }

    // MARK: - Sequences, in the order iOS posts them

    /// Posts a whole keyboard appearance: will change frame, will show, did
    /// show, did change frame.
    public func showKeyboard(endFrame: CGRect, duration: TimeInterval = defaultKeyboardDuration) {
        let change = Self.showing(endFrame, duration, Self.defaultKeyboardCurve)
        for event in [KeyboardEvent.willChangeFrame, .willShow, .didShow, .didChangeFrame] { post(event, change) }
    }

    /// Posts a whole keyboard disappearance from `frame`: will change frame,
    /// will hide, did hide, did change frame.
    public func hideKeyboard(from frame: CGRect, duration: TimeInterval = defaultKeyboardDuration) {
        let change = Self.hiding(frame, duration, Self.defaultKeyboardCurve)
        for event in [KeyboardEvent.willChangeFrame, .willHide, .didHide, .didChangeFrame] { post(event, change) }
    }

    /// Posts a launch: did finish launching, did become active.
    public func launch() {
        applicationDidFinishLaunching()
        applicationDidBecomeActive()
    }

    /// Posts a move to the background: will resign active, did enter background.
    public func enterBackground() {
        applicationWillResignActive()
        applicationDidEnterBackground()
    }

    /// Posts a return to the foreground: will enter foreground, did become active.
    public func enterForeground() {
        applicationWillEnterForeground()
        applicationDidBecomeActive()
    }

    /// Posts the connection of a scene the user opened, for `scene`: will
    /// connect, will enter foreground, did activate.
    ///
    /// An AirPlay or external-display scene stops after will enter
    /// foreground; post ``sceneWillConnect(_:)`` and
    /// ``sceneWillEnterForeground(_:)`` for one.
    public func connect(_ scene: SceneIdentity) {
        for event in [SceneEvent.willConnect, .willEnterForeground, .didActivate] { post(event, for: scene) }
    }

    /// Posts a move of `scene` to the background: will deactivate, did enter
    /// background.
    ///
    /// Scene notifications only: the application's, which UIKit also posts
    /// in an app with scenes when the app as a whole moves, come from
    /// ``enterBackground()``.
    public func enterBackground(_ scene: SceneIdentity) {
        for event in [SceneEvent.willDeactivate, .didEnterBackground] { post(event, for: scene) }
    }

    /// Posts a return of `scene` to the foreground: will enter foreground,
    /// did activate.
    public func enterForeground(_ scene: SceneIdentity) {
        for event in [SceneEvent.willEnterForeground, .didActivate] { post(event, for: scene) }
    }

    // MARK: - Shapes

    private static func showing(_ endFrame: CGRect, _ duration: TimeInterval, _ curve: KeyboardChange.AnimationCurve)
        -> KeyboardChange
    {
        moving(below(endFrame), endFrame, duration, curve)
    }

    private static func hiding(_ frame: CGRect, _ duration: TimeInterval, _ curve: KeyboardChange.AnimationCurve)
        -> KeyboardChange
    {
        moving(frame, below(frame), duration, curve)
    }

    /// The change UIKit sends for this app's keyboard moving between frames.
    private static func moving(
        _ beginFrame: CGRect, _ endFrame: CGRect, _ duration: TimeInterval, _ curve: KeyboardChange.AnimationCurve
    ) -> KeyboardChange {
        KeyboardChange(
            beginFrame: beginFrame, endFrame: endFrame,
            animationDuration: duration, animationCurve: curve, isLocal: true)
    }

    /// `frame` moved down by its own height: just off the bottom of a screen
    /// whose bottom edge it touched.
    private static func below(_ frame: CGRect) -> CGRect {
        CGRect(
            x: frame.origin.x, y: frame.origin.y + frame.size.height,
            width: frame.size.width, height: frame.size.height)
    }
}

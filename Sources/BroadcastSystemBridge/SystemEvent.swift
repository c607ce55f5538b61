import Foundation

/// The six keyboard notifications, one case each.
///
/// A closed set: it mirrors a fixed set of system notifications, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum KeyboardEvent: String, Sendable, CaseIterable {
    /// `UIKeyboardWillShowNotification`.
    case willShow
    /// `UIKeyboardDidShowNotification`.
    case didShow
    /// `UIKeyboardWillHideNotification`.
    case willHide
    /// `UIKeyboardDidHideNotification`.
    case didHide
    /// `UIKeyboardWillChangeFrameNotification`.
    case willChangeFrame
    /// `UIKeyboardDidChangeFrameNotification`.
    case didChangeFrame

    /// The notification name the bridge observes for this event on this
    /// platform (the raw UIKit name where the system has none).
    public var notificationName: Notification.Name {
        switch self {
        case .willShow: PlatformNames.keyboardWillShow
        case .didShow: PlatformNames.keyboardDidShow
        case .willHide: PlatformNames.keyboardWillHide
        case .didHide: PlatformNames.keyboardDidHide
        case .willChangeFrame: PlatformNames.keyboardWillChangeFrame
        case .didChangeFrame: PlatformNames.keyboardDidChangeFrame
        }
    }

    /// Calls the ``KeyboardListener`` method for this event.
    @MainActor
    public func send(_ change: KeyboardChange, to listener: any KeyboardListener) {
        switch self {
        case .willShow: listener.keyboardWillShow(change)
        case .didShow: listener.keyboardDidShow(change)
        case .willHide: listener.keyboardWillHide(change)
        case .didHide: listener.keyboardDidHide(change)
        case .willChangeFrame: listener.keyboardWillChangeFrame(change)
        case .didChangeFrame: listener.keyboardDidChangeFrame(change)
        }
    }
}

/// The seven application life-cycle notifications, one case each.
///
/// A closed set: it mirrors a fixed set of system notifications, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum ApplicationEvent: String, Sendable, CaseIterable {
    /// `UIApplicationDidFinishLaunchingNotification`.
    case didFinishLaunching
    /// `UIApplicationDidBecomeActiveNotification`.
    case didBecomeActive
    /// `UIApplicationWillResignActiveNotification`.
    case willResignActive
    /// `UIApplicationDidEnterBackgroundNotification`.
    case didEnterBackground
    /// `UIApplicationWillEnterForegroundNotification`.
    case willEnterForeground
    /// `UIApplicationWillTerminateNotification`.
    case willTerminate
    /// `UIApplicationDidReceiveMemoryWarningNotification`.
    case didReceiveMemoryWarning

    /// The notification name the bridge observes for this event on this
    /// platform: UIKit's, AppKit's on macOS where the meaning matches, or the
    /// raw UIKit name where the system has none.
    public var notificationName: Notification.Name {
        switch self {
        case .didFinishLaunching: PlatformNames.didFinishLaunching
        case .didBecomeActive: PlatformNames.didBecomeActive
        case .willResignActive: PlatformNames.willResignActive
        case .didEnterBackground: PlatformNames.didEnterBackground
        case .willEnterForeground: PlatformNames.willEnterForeground
        case .willTerminate: PlatformNames.willTerminate
        case .didReceiveMemoryWarning: PlatformNames.didReceiveMemoryWarning
        }
    }

    /// The application state this event leaves the application in, if any.
    ///
    /// Active, inactive (will resign active) or background; other events
    /// leave the state as it was.
    public var resultingState: ApplicationState? {
        switch self {
        case .didBecomeActive: .active
        case .willResignActive: .inactive
        case .didEnterBackground: .background
        case .didFinishLaunching, .willEnterForeground, .willTerminate, .didReceiveMemoryWarning: nil
        }
    }

    /// Calls the ``ApplicationStateListener`` method for this event.
    public func send(to listener: any ApplicationStateListener) {
        switch self {
        case .didFinishLaunching: listener.applicationDidFinishLaunching()
        case .didBecomeActive: listener.applicationDidBecomeActive()
        case .willResignActive: listener.applicationWillResignActive()
        case .didEnterBackground: listener.applicationDidEnterBackground()
        case .willEnterForeground: listener.applicationWillEnterForeground()
        case .willTerminate: listener.applicationWillTerminate()
        case .didReceiveMemoryWarning: listener.applicationDidReceiveMemoryWarning()
        }
    }
}

/// A system notification the bridge understands, as a typed value.
///
/// ``init(notification:)`` is the whole mapping from a `Notification` to an
/// event: a pure function, the same on every platform.
///
/// A closed set: it mirrors a fixed set of system notifications, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum SystemEvent: Sendable, Equatable {
    /// A keyboard notification and what its `userInfo` said.
    case keyboard(KeyboardEvent, KeyboardChange)
    /// An application life-cycle notification.
    case application(ApplicationEvent)

    /// Maps a notification to its event; `nil` for any other name.
    ///
    /// Never traps: the `userInfo` of a keyboard notification is parsed
    /// tolerantly (see ``KeyboardChange/init(userInfo:)``), and the object and
    /// the `userInfo` of an application notification are ignored.
    public init?(notification: Notification) {
        guard let event = Self.eventsByName[notification.name] else { return nil }
        switch event {
        case .keyboard(let keyboardEvent):
            self = .keyboard(keyboardEvent, KeyboardChange(userInfo: notification.userInfo))
        case .application(let applicationEvent):
            self = .application(applicationEvent)
        }
    }

    /// The name of the notification this event comes from on this platform.
    public var notificationName: Notification.Name {
        switch self {
        case .keyboard(let event, _): event.notificationName
        case .application(let event): event.notificationName
        }
    }

    /// Every name the bridge observes.
    static var observedNames: [Notification.Name] {
        KeyboardEvent.allCases.map(\.notificationName) + ApplicationEvent.allCases.map(\.notificationName)
    }

    private enum Kind {
        case keyboard(KeyboardEvent)
        case application(ApplicationEvent)
    }

    private static let eventsByName: [Notification.Name: Kind] = {
        var events: [Notification.Name: Kind] = [:]
        for event in KeyboardEvent.allCases { events[event.notificationName] = .keyboard(event) }
        for event in ApplicationEvent.allCases { events[event.notificationName] = .application(event) }
        return events
    }()
}

/// Where the application is in its life cycle, as far as the bridge has seen.
///
/// A closed set: it mirrors the states a fixed set of system notifications leads to, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum ApplicationState: Sendable, Equatable, CaseIterable {
    /// In the foreground and receiving events (after did become active).
    case active
    /// In the foreground but not receiving events (after will resign active).
    case inactive
    /// Not visible (after did enter background).
    case background

    /// The event a listener registering late receives to learn this state.
    var replayEvent: ApplicationEvent {
        switch self {
        case .active: .didBecomeActive
        case .inactive: .willResignActive
        case .background: .didEnterBackground
        }
    }
}

/// Whether the keyboard is up, as far as the bridge has seen.
///
/// A closed set: it mirrors the states a fixed set of system notifications leads to, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum KeyboardState: Sendable, Equatable {
    /// No keyboard (the initial state, and after will or did hide).
    case hidden
    /// The keyboard is up; the change that last moved it (show, or a frame
    /// change while shown) says where.
    case visible(KeyboardChange)

    /// The keyboard's frame in screen coordinates when visible and known.
    public var endFrame: CGRect? {
        if case .visible(let change) = self { return change.endFrame }
        return nil
    }

    /// How much of `rect` (in screen coordinates) the keyboard covers: 0 when
    /// hidden, otherwise ``KeyboardChange/coveredHeight(of:)``.
    public func coveredHeight(of rect: CGRect) -> CGFloat {
        if case .visible(let change) = self { return change.coveredHeight(of: rect) }
        return 0
    }

    /// The state after `event` carrying `change`.
    ///
    /// Show makes the keyboard visible and hide hides it. A frame change only
    /// updates the frame of a visible keyboard (and only when it carries an
    /// end frame): iOS sends did-change-frame after did-hide, with a frame
    /// below the screen, which must not make the keyboard visible again.
    func applying(_ event: KeyboardEvent, _ change: KeyboardChange) -> KeyboardState {
        switch event {
        case .willShow, .didShow:
            return .visible(change)
        case .willHide, .didHide:
            return .hidden
        case .willChangeFrame, .didChangeFrame:
            guard case .visible = self, change.endFrame != nil else { return self }
            return .visible(change)
        }
    }
}

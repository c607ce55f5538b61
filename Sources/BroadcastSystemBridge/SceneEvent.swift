import Foundation

/// The six scene life-cycle notifications, one case each.
///
/// A closed set: it mirrors a fixed set of system notifications, so a new
/// system event will come as a new type, never as a new case here, and an
/// exhaustive `switch` over it stays valid.
public enum SceneEvent: String, Sendable, CaseIterable {
    /// `UISceneWillConnectNotification`.
    case willConnect
    /// `UISceneDidActivateNotification`.
    case didActivate
    /// `UISceneWillDeactivateNotification`.
    case willDeactivate
    /// `UISceneWillEnterForegroundNotification`.
    case willEnterForeground
    /// `UISceneDidEnterBackgroundNotification`.
    case didEnterBackground
    /// `UISceneDidDisconnectNotification`.
    case didDisconnect

    /// The notification name the bridge observes for this event (UIKit's,
    /// and the same name where the system has none, for the simulator).
    public var notificationName: Notification.Name {
        switch self {
        case .willConnect: PlatformNames.sceneWillConnect
        case .didActivate: PlatformNames.sceneDidActivate
        case .willDeactivate: PlatformNames.sceneWillDeactivate
        case .willEnterForeground: PlatformNames.sceneWillEnterForeground
        case .didEnterBackground: PlatformNames.sceneDidEnterBackground
        case .didDisconnect: PlatformNames.sceneDidDisconnect
        }
    }

    /// The state this event leaves its scene in; `nil` for
    /// ``didDisconnect``, after which the scene is no longer connected.
    ///
    /// A scene that just connected is ``SceneState/background`` until it
    /// enters the foreground: it is not on screen yet, and a scene the system
    /// connects to handle an event in the background stays there. Entering
    /// the foreground makes it ``SceneState/inactive``, as
    /// `UIScene.ActivationState.foregroundInactive` does, until it activates.
    public var resultingState: SceneState? {
        switch self {
        case .willConnect, .didEnterBackground: .background
        case .willEnterForeground, .willDeactivate: .inactive
        case .didActivate: .active
        case .didDisconnect: nil
        }
    }

    /// Calls the ``SceneListener`` method for this event with `scene`, if
    /// the listener follows that scene (its
    /// ``SceneListener/followedScene`` is `nil` or `scene`); otherwise does
    /// nothing, as the bridge does.
    public func send(for scene: SceneIdentity, to listener: any SceneListener) {
        guard listener.followedScene.map({ $0 == scene }) ?? true else { return }
        switch self {
        case .willConnect: listener.sceneWillConnect(scene)
        case .didActivate: listener.sceneDidActivate(scene)
        case .willDeactivate: listener.sceneWillDeactivate(scene)
        case .willEnterForeground: listener.sceneWillEnterForeground(scene)
        case .didEnterBackground: listener.sceneDidEnterBackground(scene)
        case .didDisconnect: listener.sceneDidDisconnect(scene)
        }
    }

    /// The event a scene notification's name stands for; `nil` for any other
    /// name.
    init?(notificationName: Notification.Name) {
        guard let event = Self.eventsByName[notificationName] else { return nil }
        self = event
    }

    /// Every name the bridge observes for scenes.
    static var observedNames: [Notification.Name] { allCases.map(\.notificationName) }

    private static let eventsByName: [Notification.Name: SceneEvent] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.notificationName, $0) })
}

/// Where one scene is in its life cycle, as far as the bridge has seen; also
/// the state of all connected scenes together
/// (``ConnectedScenes/aggregateState``).
///
/// The three states of SwiftUI's `ScenePhase`, under a name that does not
/// clash with it in files that import both modules. A closed set: it mirrors
/// the states a fixed set of system notifications leads to, so a new system
/// event will come as a new type, never as a new case here, and an exhaustive
/// `switch` over it stays valid.
public enum SceneState: Sendable, Equatable, CaseIterable {
    /// In the foreground and receiving events (after did activate).
    case active
    /// In the foreground but not receiving events (after will enter
    /// foreground or will deactivate).
    case inactive
    /// Not on screen (after did enter background, or just connected).
    case background
}

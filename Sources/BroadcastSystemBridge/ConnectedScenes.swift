/// The state of every connected scene, and of the app's scenes as a whole.
///
/// A ``SystemNotificationBridge`` keeps the latest value as its
/// ``SystemNotificationBridge/connectedScenes`` and as the broadcaster's
/// sticky `ConnectedScenes` event, posted whenever a scene connects, changes
/// state or disconnects. So a late listener asks for it like any sticky
/// event:
///
/// ```swift
/// for await scenes in broadcaster.events(of: ConnectedScenes.self, receivingSticky: true) {
///     pauseRendering(scenes.aggregateState != .active)
/// }
/// ```
///
/// A disconnected scene is not in ``states``: it has left, though it may
/// connect again with the same ``SceneIdentity``.
public struct ConnectedScenes: Sendable, Equatable {
    /// The state of each connected scene.
    public let states: [SceneIdentity: SceneState]

    /// Connected scenes in the given states; empty by default.
    public init(_ states: [SceneIdentity: SceneState] = [:]) {
        self.states = states
    }

    /// The scenes' states combined the way SwiftUI combines an app's scene
    /// phases: ``SceneState/active`` if any scene is active, otherwise
    /// ``SceneState/inactive`` if any is inactive, otherwise
    /// ``SceneState/background`` (also when no scene is connected).
    public var aggregateState: SceneState {
        if states.values.contains(.active) { return .active }
        if states.values.contains(.inactive) { return .inactive }
        return .background
    }
}

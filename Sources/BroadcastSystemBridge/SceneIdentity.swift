import Foundation

/// Which scene a scene event is about: the persistent identifier of the
/// scene's session, a `Sendable` value that survives disconnection.
///
/// UIKit gives each instance of an app's user interface a session
/// (`UISceneSession`) and, while it is connected, a scene object (`UIScene`).
/// When UIKit disconnects a scene to reclaim memory, it releases the scene
/// object but keeps the session; when the user comes back, a new scene object
/// connects to the same session. The session's `persistentIdentifier` is
/// therefore the identity that stays the same across a disconnection and a
/// reconnection, and the one to key per-scene state by. (The scene object's
/// own identity lasts one connection only, and the object is not `Sendable`.)
///
/// The ``SystemNotificationBridge`` reads it from the `UIScene` UIKit puts in
/// each scene notification. Code that holds a scene makes the same value:
///
/// ```swift
/// let identity = SceneIdentity(persistentIdentifier: windowScene.session.persistentIdentifier)
/// ```
///
/// A ``SystemNotificationSimulator`` posts it as the notification's object,
/// so tests can simulate as many scenes as they need, on any platform.
public struct SceneIdentity: Sendable, Hashable {
    /// The scene session's `persistentIdentifier`.
    public let persistentIdentifier: String

    /// The identity of the scene whose session has `persistentIdentifier`.
    public init(persistentIdentifier: String) {
        self.persistentIdentifier = persistentIdentifier
    }

    /// The scene a scene notification's object identifies: a `UIScene`, read
    /// on the main thread where UIKit posts, or a `SceneIdentity`, as the
    /// simulator posts it; `nil` for anything else.
    init?(notificationObject object: Any?) {
        if let identity = object as? SceneIdentity {
            self = identity
        } else if let identifier = PlatformNames.scenePersistentIdentifier(of: object) {
            self.init(persistentIdentifier: identifier)
        } else {
            return nil
        }
    }
}

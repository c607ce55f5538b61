import Broadcast
import Foundation

extension SystemNotificationBridge {
    /// The state of every connected scene after the latest scene
    /// notification; empty until the first one.
    ///
    /// A scene joins with its first notification (will connect, or any
    /// other for a scene that connected before the bridge was created) and
    /// leaves with did disconnect; each notification sets its state (see
    /// ``SceneEvent/resultingState``). The same value is the broadcaster's
    /// sticky ``ConnectedScenes`` event, posted whenever it changes.
    ///
    /// A scene notification whose object identifies no scene (neither a
    /// `UIScene`, read on the main thread where UIKit posts, nor a
    /// ``SceneIdentity``, as the simulator posts) changes nothing and reaches
    /// no listener; in debug builds it is reported as a
    /// ``/Broadcast/BroadcastDiagnostic`` of kind `notificationRejected`, to
    /// the handler of a broadcaster made with
    /// ``/Broadcast/Broadcaster/init(onDiagnostic:)`` or to standard error.
    /// Its `userInfo` is never read.
    public var connectedScenes: ConnectedScenes {
        state.withLock { $0.scenes.connectedScenes }
    }

    /// Records a scene notification, keeps the new state for late listeners,
    /// then delivers the event and, if the connected scenes changed, posts
    /// them.
    func receive(_ event: SceneEvent, about notification: Notification) {
        guard let scene = SceneIdentity(notificationObject: notification.object) else {
            broadcaster.report(Self.unidentifiedScene(in: notification))
            return
        }
        let broadcaster = broadcaster
        // The state is kept in the broadcaster inside the bridge's critical
        // section, so that posts from several threads leave the kept state
        // equal to `connectedScenes`. Keeping runs nothing of the user's: it
        // replaces a value and a closure of the bridge's own.
        let changed: ConnectedScenes? = state.withLock { state in
            let before = state.scenes.connectedScenes
            state.scenes.record(event, for: scene)
            Self.keepSceneStates(state.scenes, in: broadcaster)
            let after = state.scenes.connectedScenes
            guard after != before else { return nil }
            broadcaster.setStickyEvent(after)
            return after
        }
        broadcaster.broadcastOnMainActor(to: (any SceneListener).self) { event.send(for: scene, to: $0) }
        if let changed { broadcaster.post(changed) }
    }

    /// Keeps, for a ``SceneListener`` registering later, each connected
    /// scene's latest event; forgets it once no scene is connected.
    private static func keepSceneStates(_ scenes: LatestSceneEvents, in broadcaster: Broadcaster) {
        let entries = scenes.entries
        guard !entries.isEmpty else {
            return broadcaster.clearStickyBroadcast(for: (any SceneListener).self)
        }
        broadcaster.setStickyBroadcastOnMainActor(for: (any SceneListener).self) { listener in
            for (scene, event) in entries { event.send(for: scene, to: listener) }
        }
    }

    private static func unidentifiedScene(in notification: Notification) -> BroadcastDiagnostic {
        let name = notification.name.rawValue
        let object = notification.object.map { "of type \(type(of: $0))" } ?? "nil"
        let reason =
            "its object is \(object), which identifies no scene (a UIScene, read on the main thread, "
            + "or a SceneIdentity)"
        return BroadcastDiagnostic(
            kind: .notificationRejected, typeName: String(describing: SceneEvent.self), notificationName: name,
            reason: reason, fileID: "", line: 0,
            message: "Broadcast: a SystemNotificationBridge did not deliver the scene notification named \(name): "
                + "\(reason). No SceneListener was called and connectedScenes is unchanged; the bridge goes on "
                + "observing.")
    }
}

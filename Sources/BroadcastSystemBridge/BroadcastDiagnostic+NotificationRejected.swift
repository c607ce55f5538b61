import Broadcast

extension BroadcastDiagnostic.Kind {
    /// A notification was rejected and not passed on.
    ///
    /// A ``NotificationForwarder`` received a notification its parse closure
    /// rejected, by returning `nil` or by throwing; it was not forwarded. Or
    /// a ``SystemNotificationBridge`` received a scene notification whose
    /// object identifies no scene; it was not delivered.
    ///
    /// The diagnostic's ``/Broadcast/BroadcastDiagnostic/notificationName``
    /// names the notification, ``/Broadcast/BroadcastDiagnostic/reason`` says
    /// why it was rejected (the error thrown, that the closure returned
    /// `nil`, or the type of the scene notification's object),
    /// ``/Broadcast/BroadcastDiagnostic/typeName`` names the type it was to
    /// be forwarded as (`SceneEvent` for a scene notification), and
    /// ``/Broadcast/BroadcastDiagnostic/fileID`` and
    /// ``/Broadcast/BroadcastDiagnostic/line`` where the forwarder was
    /// created (empty and 0 for a scene notification).
    public static let notificationRejected = BroadcastDiagnostic.Kind("notificationRejected")
}

import Broadcast

extension BroadcastDiagnostic.Kind {
    /// A ``NotificationForwarder`` received a notification its parse closure
    /// rejected, by returning `nil` or by throwing; it was not forwarded.
    ///
    /// The diagnostic's ``/Broadcast/BroadcastDiagnostic/notificationName``
    /// names the notification, ``/Broadcast/BroadcastDiagnostic/reason`` says
    /// why it was rejected (the error thrown, or that the closure returned
    /// `nil`), ``/Broadcast/BroadcastDiagnostic/typeName`` names the type it
    /// was to be forwarded as, and ``/Broadcast/BroadcastDiagnostic/fileID``
    /// and ``/Broadcast/BroadcastDiagnostic/line`` where the forwarder was
    /// created.
    public static let notificationRejected = BroadcastDiagnostic.Kind("notificationRejected")
}

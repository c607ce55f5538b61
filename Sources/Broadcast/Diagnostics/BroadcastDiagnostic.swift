/// A mistake a debug build of Broadcast reports as it happens; release builds
/// check nothing and report nothing.
///
/// Written to standard error, or handed to the handler of a broadcaster made
/// with ``Broadcaster/init(onDiagnostic:)`` (which tests use to check for it):
///
/// ```swift
/// let broadcaster = Broadcaster(onDiagnostic: { print($0) })
/// broadcaster.addListener(Downloader())
/// // Broadcast: Downloader registered at MyApp/Setup.swift:12 was released as soon as it was
/// // registered: nothing else kept it alive, and a broadcaster holds listeners weakly, so it
/// // will never be called. Keep a strong reference to it, for example in a property of its owner.
/// ```
public struct BroadcastDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// ``Broadcaster/addListener(_:receivingStickyBroadcasts:isolation:fileID:line:)``
        /// held the last strong reference to the listener: it was deallocated
        /// before the call returned and can never be called.
        ///
        /// Only reported when the argument itself is the last reference
        /// (`addListener(Downloader())`, `addListener(makeListener())`), which
        /// is certain to be a mistake: such a listener can never receive
        /// anything. An object that registers itself in its initializer and
        /// that the caller then drops (`_ = Downloader(broadcaster:)`) dies
        /// after the call, like any listener released on purpose, so it is not
        /// reported; ``Broadcaster/deliveryExplanation(for:to:isolation:)``
        /// and ``Broadcaster/isRegistered(_:)`` help there.
        case listenerReleasedOnRegistration

        /// A `NotificationForwarder` (in `BroadcastSystemBridge`) received a
        /// notification its parse closure rejected, by returning `nil` or by
        /// throwing; it was not forwarded.
        ///
        /// ``BroadcastDiagnostic/listenerType`` names the type the
        /// notification was to be forwarded as, and
        /// ``BroadcastDiagnostic/fileID`` and ``BroadcastDiagnostic/line``
        /// where the forwarder was created.
        ///
        /// - Parameters:
        ///   - name: The notification's name.
        ///   - reason: Why it was rejected: the error thrown, or that the
        ///     closure returned `nil`.
        case notificationRejected(name: String, reason: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The listener's type, as `String(describing:)` names it; for a rejected
    /// notification, the type it was to be forwarded as.
    public let listenerType: String
    /// The file of the call that made the mistake (`#fileID`).
    public let fileID: String
    /// The line of that call.
    public let line: Int

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - listenerType: The listener's type name.
    ///   - fileID: The file of the call (`#fileID`).
    ///   - line: The line of the call.
    public init(kind: Kind, listenerType: String, fileID: String, line: Int) {
        self.kind = kind
        self.listenerType = listenerType
        self.fileID = fileID
        self.line = line
    }

    /// The message written to standard error.
    public var description: String {
        switch kind {
        case .listenerReleasedOnRegistration:
            "Broadcast: \(listenerType) registered at \(fileID):\(line) was released as soon as it was registered: "
                + "nothing else kept it alive, and a broadcaster holds listeners weakly, so it will never be called. "
                + "Keep a strong reference to it, for example in a property of its owner."
        case .notificationRejected(let name, let reason):
            "Broadcast: a notification named \(name) was not forwarded as \(listenerType) by the forwarder created at "
                + "\(fileID):\(line): \(reason). The forwarder counts it in rejectedCount and goes on forwarding."
        }
    }
}

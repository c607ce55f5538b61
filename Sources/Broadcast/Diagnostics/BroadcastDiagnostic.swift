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

        /// The listener conforms to the protocol named `protocolName` only on
        /// the main actor (an isolated conformance:
        /// `extension Screen: @MainActor FeedListener`, or a plain
        /// conformance of a main-actor class where conformance isolation is
        /// inferred), but was registered from code that is not isolated to
        /// the main actor, so it has no actor or another one.
        ///
        /// Broadcast then does not move its calls to the main actor. This
        /// runtime checks the isolation in every cast, so the listener is
        /// skipped wherever the cast fails; the Swift runtimes of Apple OS
        /// releases before the 26 generation (iOS 18, macOS 15, …) have no
        /// such check, let the cast succeed anywhere, and a broadcast from
        /// another thread would call the listener there: a data race.
        /// Register it from main-actor code instead, for example in its
        /// `@MainActor` initializer.
        ///
        /// Found once per broadcaster, listener class and protocol, when a
        /// broadcast or query to that protocol takes the registration in on
        /// the main actor (or, if it was first taken in elsewhere, the next
        /// time the protocol's listeners are looked up on the main actor):
        /// the cast succeeds there and fails on a new thread. The report is
        /// handed over on the main actor, once it runs
        /// (``Broadcaster/waitForScheduledDeliveries()`` waits for it).
        /// Conformances isolated to other global actors are not checked.
        case isolatedConformanceRegisteredOffMainActor(protocolName: String)
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
    /// The file of the call that made the mistake (`#fileID`); empty when
    /// the mistake was not made by a call that records its place (a
    /// ``ListenerRegistration`` started off the main actor).
    public let fileID: String
    /// The line of that call; 0 when `fileID` is empty.
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
        case .isolatedConformanceRegisteredOffMainActor(let protocolName):
            "Broadcast: \(listenerType)\(place) conforms to \(protocolName) only on the main actor "
                + "(an isolated conformance) but was registered from code that is not isolated to the main actor, "
                + "so its calls are not moved to the main actor. This runtime checks the isolation and skips it "
                + "wherever the cast fails; the runtimes of Apple OS releases before the 26 generation "
                + "(iOS 18, macOS 15) do not, and a broadcast from another thread would call it there: a data race. "
                + "Register it from main-actor code, for example in its @MainActor initializer."
        case .notificationRejected(let name, let reason):
            "Broadcast: a notification named \(name) was not forwarded as \(listenerType) by the forwarder created at "
                + "\(fileID):\(line): \(reason). The forwarder counts it in rejectedCount and goes on forwarding."
        }
    }

    /// " registered at File.swift:12", or nothing when the place is unknown.
    private var place: String {
        line > 0 ? " registered at \(fileID):\(line)" : ""
    }
}

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
///
/// ``kind`` says what went wrong; the other properties carry what that kind
/// names (each says which kinds set it). Broadcast makes every diagnostic
/// itself: there is no public initializer.
public struct BroadcastDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let kind: Kind
    /// The type concerned, as `String(describing:)` names it: the listener's
    /// type; for a rejected notification
    /// (`BroadcastSystemBridge`'s `notificationRejected`), the type it was to
    /// be forwarded as.
    public let typeName: String
    /// The protocol concerned, for
    /// ``Kind/isolatedConformanceRegisteredOffMainActor`` and
    /// ``Kind/unsettledCallLimitReached``; nil otherwise.
    public let protocolName: String?
    /// The notification's name, for a rejected notification; nil otherwise.
    public let notificationName: String?
    /// Why a notification was rejected (the error its parse closure threw, or
    /// that the closure returned `nil`); nil for the other kinds.
    public let reason: String?
    /// The file of the call that made the mistake (`#fileID`); empty when
    /// the mistake was not made by a call that records its place (a
    /// ``ListenerRegistration`` started off the main actor).
    public let fileID: String
    /// The line of that call; 0 when `fileID` is empty.
    public let line: Int
    /// The sentence of a kind this module does not know, given by the
    /// module that reports it.
    private let message: String?
    /// For ``Kind/isolatedConformanceRegisteredOffMainActor``: the type of
    /// the actor the listener registered on; nil when it has no actor.
    private let registeringActor: String?

    /// Creates a diagnostic; for Broadcast's modules, which report their own
    /// mistakes.
    ///
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - typeName: The type concerned.
    ///   - protocolName: The protocol concerned, if any.
    ///   - notificationName: The notification concerned, if any.
    ///   - reason: Why, if the kind has a reason.
    ///   - fileID: The file of the call (`#fileID`).
    ///   - line: The line of the call.
    ///   - message: The ``description`` of a kind declared outside this
    ///     module; ignored for this module's kinds, which write their own.
    package init(
        kind: Kind, typeName: String, protocolName: String? = nil, notificationName: String? = nil,
        reason: String? = nil, fileID: String, line: Int, message: String? = nil
    ) {
        self.init(
            kind: kind, typeName: typeName, protocolName: protocolName, notificationName: notificationName,
            reason: reason, fileID: fileID, line: line, message: message, registeringActor: nil)
    }

    /// A diagnostic naming the actor a listener registered on.
    ///
    /// As the initializer above, with the type of the actor the listener
    /// registered on, `registeringActor` (nil if it has none). A second
    /// initializer, not a defaulted parameter, keeps the first one's
    /// spelling, which shipped.
    package init(
        kind: Kind, typeName: String, protocolName: String? = nil, notificationName: String? = nil,
        reason: String? = nil, fileID: String, line: Int, message: String? = nil, registeringActor: String?
    ) {
        self.registeringActor = registeringActor
        self.kind = kind
        self.typeName = typeName
        self.protocolName = protocolName
        self.notificationName = notificationName
        self.reason = reason
        self.fileID = fileID
        self.line = line
        self.message = message
    }

    /// The message written to standard error.
    public var description: String {
        switch kind {
        case .listenerReleasedOnRegistration:
            "Broadcast: \(typeName) registered at \(fileID):\(line) was released as soon as it was registered: "
                + "nothing else kept it alive, and a broadcaster holds listeners weakly, so it will never be called. "
                + "Keep a strong reference to it, for example in a property of its owner."
        case .isolatedConformanceRegisteredOffMainActor:
            if let registeringActor {
                "Broadcast: \(typeName)\(place) conforms to \(protocolName ?? "its protocol") only on the main actor "
                    + "(an isolated conformance) but was registered from code isolated to \(registeringActor), so a "
                    + "broadcast made off the main actor sends its call to that actor, where this runtime finds no "
                    + "conformance and skips it; the runtimes of Apple OS releases before the 26 generation (iOS 18, "
                    + "macOS 15) do not check the isolation, and would call it there: a data race. Register it from "
                    + "main-actor code, for example in its @MainActor initializer, or with calledOn: MainActor.shared."
            } else {
                "Broadcast: \(typeName)\(place) conforms to \(protocolName ?? "its protocol") only on the main actor "
                    + "(an isolated conformance) but was registered from code that is not isolated to any actor, "
                    + "so it has no actor. This runtime checks the isolation, and a broadcast made elsewhere sends its "
                    + "call to the main actor, whose cast makes it; the runtimes of Apple OS releases before the 26 "
                    + "generation (iOS 18, macOS 15) do not, and a broadcast from another thread would call it there: "
                    + "a data race. Register it from main-actor code, for example in its @MainActor initializer."
            }
        case .unsettledCallLimitReached:
            "Broadcast: a broadcast to \(protocolName ?? "a protocol") made off the main actor did not keep its calls "
                + "to listeners registered with no actor, such as \(typeName)\(place), that the main actor has not "
                + "settled yet: the calls of 1,000 broadcasts were already waiting for the main actor. Register "
                + "listeners whose conformance is isolated to the main actor from main-actor code or with calledOn: "
                + "MainActor.shared, or let the main actor run. Reported once per broadcaster."
        default:
            message ?? "Broadcast: \(kind) for \(typeName)\(place)\(reason.map { ": \($0)" } ?? "")."
        }
    }

    /// " registered at File.swift:12", or nothing when the place is unknown.
    private var place: String {
        line > 0 ? " registered at \(fileID):\(line)" : ""
    }
}

/// Why a broadcast to a protocol, made from a given place, would or would not
/// call a listener: the answer of
/// ``Broadcaster/deliveryExplanation(for:to:isolation:)``.
///
/// Use ``description`` in logs and in the debugger:
///
/// ```swift
/// print(broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self))
/// // scheduled on MainActor if it conforms there: its conformance can only be checked on that actor
/// ```
///
/// Compare with `==`, or match the static members in a `switch`; a struct,
/// not an enum, so that a later release can add a decision.
public struct DeliveryExplanation: Sendable, Equatable, CustomStringConvertible {
    private enum Decision: Sendable, Equatable {
        case calledHere
        case scheduled
        case scheduledIfConforming
        case notRegistered
        case registeredOnlyForOtherProtocols
        case registrationStopped
        case doesNotConform
        case refusedAsBoxedValue
    }

    private let decision: Decision

    /// The actor of ``scheduled(on:)`` and ``scheduledIfConforming(on:)``; nil otherwise.
    public let actor: (any Actor)?

    /// The protocols of ``registeredOnlyForOtherProtocols(_:)``; empty otherwise.
    public let otherProtocols: [String]

    private init(_ decision: Decision, actor: (any Actor)? = nil, otherProtocols: [String] = []) {
        self.decision = decision
        self.actor = actor
        self.otherProtocols = otherProtocols
    }

    /// The broadcast calls the listener here, before `broadcast` returns.
    public static let calledHere = DeliveryExplanation(.calledHere)

    /// The broadcast schedules a call on `actor`, the listener's, where it is
    /// known to conform.
    public static func scheduled(on actor: any Actor) -> DeliveryExplanation {
        DeliveryExplanation(.scheduled, actor: actor)
    }

    /// The broadcast schedules a call on `actor`, made only if the listener
    /// conforms there: a conformance isolated to `actor` cannot be checked
    /// anywhere else.
    public static func scheduledIfConforming(on actor: any Actor) -> DeliveryExplanation {
        DeliveryExplanation(.scheduledIfConforming, actor: actor)
    }

    /// The listener is not registered with this broadcaster (never added,
    /// removed, or registered with another one).
    public static let notRegistered = DeliveryExplanation(.notRegistered)

    /// The listener is registered only through ``ListenerRegistration``s for
    /// other protocols, named here in registration order.
    public static func registeredOnlyForOtherProtocols(_ protocols: [String]) -> DeliveryExplanation {
        DeliveryExplanation(.registeredOnlyForOtherProtocols, otherProtocols: protocols)
    }

    /// The listener's ``ListenerRegistration`` for this protocol was stopped,
    /// and nothing else registers it for this protocol.
    public static let registrationStopped = DeliveryExplanation(.registrationStopped)

    /// The listener is registered but does not conform to the protocol, as
    /// seen from here (a conformance isolated to an actor holds on it only).
    public static let doesNotConform = DeliveryExplanation(.doesNotConform)

    /// The listener is a value boxed as `AnyObject`, which `addListener` refuses.
    public static let refusedAsBoxedValue = DeliveryExplanation(.refusedAsBoxedValue)

    /// Whether a broadcast from here calls the listener or schedules a call for it.
    public var reachesListener: Bool {
        switch decision {
        case .calledHere, .scheduled, .scheduledIfConforming: true
        default: false
        }
    }

    /// A sentence for logs and the debugger.
    public var description: String {
        switch decision {
        case .calledHere:
            "called here, before the broadcast returns"
        case .scheduled:
            "scheduled on \(actorName), where it registered"
        case .scheduledIfConforming:
            "scheduled on \(actorName) if it conforms there: its conformance can only be checked on that actor"
        case .notRegistered:
            "not registered with this broadcaster (never added, removed, "
                + "or registered with another broadcaster)"
        case .registeredOnlyForOtherProtocols:
            "registered only for other protocols: \(otherProtocols.joined(separator: ", "))"
        case .registrationStopped:
            "its registration for this protocol was stopped"
        case .doesNotConform:
            "registered, but does not conform to the protocol here"
        case .refusedAsBoxedValue:
            "refused: a value boxed as AnyObject, which a weak table would release at once"
        }
    }

    /// The same decision with the same values; actors compare by identity.
    public static func == (lhs: DeliveryExplanation, rhs: DeliveryExplanation) -> Bool {
        lhs.decision == rhs.decision && lhs.actor === rhs.actor && lhs.otherProtocols == rhs.otherProtocols
    }

    private var actorName: String {
        actor.map { String(describing: type(of: $0)) } ?? "no actor"
    }
}

/// Why a broadcast to a protocol, made from a given place, would or would not
/// call a listener: the answer of
/// ``Broadcaster/deliveryExplanation(for:to:isolation:)``.
///
/// Use ``description`` in logs and in the debugger:
///
/// ```swift
/// print(broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self))
/// // scheduled on MainActor if it conforms there: its conformance can be used only on that actor, where it registered
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

    /// The rule that put the call here or on the actor, when
    /// ``Broadcaster/deliveryExplanation(for:to:isolation:)`` knows it; said
    /// by ``description``, ignored by `==`.
    private var rule: DeliveryRule?

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

    /// A sentence for logs and the debugger; it names the rule that decided
    /// where the call runs, when the explanation comes from
    /// ``Broadcaster/deliveryExplanation(for:to:isolation:)``.
    public var description: String {
        switch decision {
        case .calledHere:
            "called here, before the broadcast returns" + (rule.map { ": \($0.sentence)" } ?? "")
        case .scheduled:
            "scheduled on \(actorName)" + (rule.map { ": \($0.sentence)" } ?? ", where it registered")
        case .scheduledIfConforming:
            "scheduled on \(actorName) if it conforms there: "
                + (rule?.sentence ?? "its conformance can only be checked on that actor")
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

    /// The same explanation, naming `rule`.
    func applying(_ rule: DeliveryRule) -> DeliveryExplanation {
        var explained = self
        explained.rule = rule
        return explained
    }
}

/// The rules that decide where a call to a listener runs (the article
/// "Delivery Semantics", "Where a listener runs"), as
/// ``DeliveryExplanation/description`` names them.
enum DeliveryRule: Sendable {
    /// Registered with no actor: called where the broadcast runs.
    case noActor
    /// The broadcast runs on the listener's actor.
    case onItsActor
    /// A `Sendable` listener, whose conformance holds where the broadcast runs.
    case sendableCalledWhereBroadcastRuns
    /// Registered with `calledOn:` (or, not `Sendable`, in the Swift 5
    /// language mode from its actor's code): every call runs there.
    case boundToItsActor
    /// A `Sendable` listener whose conformance is isolated to the actor it
    /// registered from.
    case conformanceIsolatedToItsActor
    /// A runtime that cannot check isolated conformances keeps a listener of
    /// an actor on that actor.
    case runtimeCannotCheckIsolation
    /// Registered with no actor; the main actor found its conformance
    /// isolated to it.
    case conformanceFoundIsolatedToTheMainActor
    /// Registered with no actor, not a `P` where the broadcast runs, and not
    /// settled yet: the main actor's cast decides.
    case mainActorSettles

    var sentence: String {
        switch self {
        case .noActor: "it registered with no actor, so it is called where the broadcast runs"
        case .onItsActor: "the broadcast runs on the actor its calls run on"
        case .sendableCalledWhereBroadcastRuns: "a Sendable listener is called where the broadcast runs"
        case .boundToItsActor: "it is bound to that actor (calledOn:), so every call runs there"
        case .conformanceIsolatedToItsActor: "its conformance can be used only on that actor, where it registered"
        case .runtimeCannotCheckIsolation:
            "this runtime cannot check isolated conformances, so it is called only on the actor it registered from"
        case .conformanceFoundIsolatedToTheMainActor:
            "it registered with no actor, and the main actor found a conformance that can be used only there"
        case .mainActorSettles:
            "it registered with no actor and does not conform here, so the call goes to the main actor, where "
                + "a conformance isolated to it holds; not counted until the main actor has cast it"
        }
    }
}

/// Why a broadcast to a protocol, made from a given place, would or would not
/// call a listener: the answer of
/// ``Broadcaster/deliveryExplanation(for:to:isolation:)``.
///
/// Each value is a decision the delivery path takes, in the order it takes
/// them. Use ``description`` in logs and in the debugger:
///
/// ```swift
/// print(broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self))
/// // scheduled on MainActor if it conforms there: its conformance can be used only on that actor, where it registered
/// ```
///
/// Compare with `==` (`explanation == .scheduled(on: MainActor.shared)`), or
/// match the static properties in a `switch` (`case .calledHere:`); read
/// ``actor`` and ``otherProtocols`` for the values a decision carries. A struct with static
/// members, not an enum, so that a later release can add a decision without
/// breaking a `switch` written against this one.
public struct DeliveryExplanation: Sendable, Equatable, CustomStringConvertible {
    /// The decisions this release knows.
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

    /// Which rule of where a listener runs put the call here or on the
    /// actor, when ``Broadcaster/deliveryExplanation(for:to:isolation:)``
    /// knows it; said by ``description``, ignored by `==`.
    private var rule: DeliveryRule?

    /// The actor a scheduled call runs on: the listener's, for
    /// ``scheduled(on:)`` and ``scheduledIfConforming(on:)``; nil for every
    /// other explanation.
    public let actor: (any Actor)?

    /// The protocols the listener is registered for instead, in registration
    /// order, for ``registeredOnlyForOtherProtocols(_:)``; empty for every
    /// other explanation.
    public let otherProtocols: [String]

    private init(_ decision: Decision, actor: (any Actor)? = nil, otherProtocols: [String] = []) {
        self.decision = decision
        self.actor = actor
        self.otherProtocols = otherProtocols
    }

    /// The broadcast calls the listener here, before `broadcast` returns.
    public static let calledHere = DeliveryExplanation(.calledHere)

    /// The broadcast schedules a call on `actor`, the actor the listener
    /// registered from, because it does not run there.
    ///
    /// The listener is known to conform, so the call is made once the actor
    /// runs it (after ``Broadcaster/waitForScheduledDeliveries()`` has
    /// returned, at the latest).
    public static func scheduled(on actor: any Actor) -> DeliveryExplanation {
        DeliveryExplanation(.scheduled, actor: actor)
    }

    /// The broadcast schedules a call on `actor`, which makes it only if the
    /// listener conforms there.
    ///
    /// The listener registered from `actor`, and the question cannot be
    /// settled here: a conformance isolated to an actor
    /// (`extension Screen: @MainActor P`) makes the cast fail anywhere else,
    /// exactly like no conformance at all. Once a call on the actor has found
    /// no conformance, later explanations say ``doesNotConform``.
    public static func scheduledIfConforming(on actor: any Actor) -> DeliveryExplanation {
        DeliveryExplanation(.scheduledIfConforming, actor: actor)
    }

    /// The listener is not registered with this broadcaster: it was never
    /// added, it was removed, its registrations were stopped (or released)
    /// before this broadcaster saw them, or it was registered with another
    /// ``Broadcaster`` instance, which this one cannot know about.
    public static let notRegistered = DeliveryExplanation(.notRegistered)

    /// The listener is registered only through ``ListenerRegistration``s for
    /// other protocols, named here in registration order; neither
    /// `addListener` nor a registration for this protocol holds it.
    public static func registeredOnlyForOtherProtocols(_ protocols: [String]) -> DeliveryExplanation {
        DeliveryExplanation(.registeredOnlyForOtherProtocols, otherProtocols: protocols)
    }

    /// The listener's ``ListenerRegistration`` for this protocol was stopped
    /// (or released, which stops it), and nothing else registers it for this
    /// protocol.
    public static let registrationStopped = DeliveryExplanation(.registrationStopped)

    /// The listener is registered but does not conform to the protocol, as
    /// seen from here.
    ///
    /// A listener registered from non-isolated code whose conformance is
    /// isolated to an actor is a `P` only on that actor; from anywhere else it
    /// reads as not conforming, and a broadcast from here does not call it.
    public static let doesNotConform = DeliveryExplanation(.doesNotConform)

    /// The listener is a value boxed as `AnyObject` (a struct, or a bridged
    /// `NSNumber`, `NSString`, …), which `addListener` refuses: a weak table
    /// would release it at once.
    public static let refusedAsBoxedValue = DeliveryExplanation(.refusedAsBoxedValue)

    /// Whether a broadcast from here calls the listener now or schedules a
    /// call for it (a ``scheduledIfConforming(on:)`` call still depends on
    /// the conformance).
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

    /// The same decision with the same values; actors compare by identity
    /// (the same actor instance).
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

    var sentence: String {
        switch self {
        case .noActor: "it registered with no actor, so it is called where the broadcast runs"
        case .onItsActor: "the broadcast runs on the actor its calls run on"
        case .sendableCalledWhereBroadcastRuns: "a Sendable listener is called where the broadcast runs"
        case .boundToItsActor: "it is bound to that actor (calledOn:), so every call runs there"
        case .conformanceIsolatedToItsActor: "its conformance can be used only on that actor, where it registered"
        case .runtimeCannotCheckIsolation:
            "this runtime cannot check isolated conformances, so it is called only on the actor it registered from"
        }
    }
}

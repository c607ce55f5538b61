/// Why a broadcast to a protocol, made from a given place, would or would not
/// call a listener: the answer of
/// ``Broadcaster/deliveryExplanation(for:to:isolation:)``.
///
/// Each case is a decision the delivery path takes, in the order it takes
/// them. Use ``description`` in logs and in the debugger:
///
/// ```swift
/// print(broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self))
/// // scheduled on MainActor if it conforms there: its conformance can only be checked on that actor
/// ```
public enum DeliveryExplanation: Sendable, Equatable, CustomStringConvertible {
    /// The broadcast calls the listener here, before `broadcast` returns.
    case calledHere

    /// The broadcast schedules a call on `actor`, the actor the listener
    /// registered from, because it does not run there. The listener is known
    /// to conform, so the call is made once the actor runs it (after
    /// ``Broadcaster/waitForScheduledDeliveries()`` has returned, at the
    /// latest).
    case scheduled(on: any Actor)

    /// The broadcast schedules a call on `actor`, which makes it only if the
    /// listener conforms there.
    ///
    /// The listener registered from `actor`, and the question cannot be
    /// settled here: a conformance isolated to an actor
    /// (`extension Screen: @MainActor P`) makes the cast fail anywhere else,
    /// exactly like no conformance at all. Once a call on the actor has found
    /// no conformance, later explanations say ``doesNotConform``.
    case scheduledIfConforming(on: any Actor)

    /// The listener is not registered with this broadcaster: it was never
    /// added, it was removed, its registrations were stopped (or released)
    /// before this broadcaster saw them, or it was registered with another
    /// ``Broadcaster`` instance, which this one cannot know about.
    case notRegistered

    /// The listener is registered only through ``ListenerRegistration``s for
    /// other protocols, named here in registration order; neither
    /// `addListener` nor a registration for this protocol holds it.
    case registeredOnlyForOtherProtocols([String])

    /// The listener's ``ListenerRegistration`` for this protocol was stopped
    /// (or released, which stops it), and nothing else registers it for this
    /// protocol.
    case registrationStopped

    /// The listener is registered but does not conform to the protocol, as
    /// seen from here.
    ///
    /// A listener registered from non-isolated code whose conformance is
    /// isolated to an actor is a `P` only on that actor; from anywhere else it
    /// reads as not conforming, and a broadcast from here does not call it.
    case doesNotConform

    /// The listener is a value boxed as `AnyObject` (a struct, or a bridged
    /// `NSNumber`, `NSString`, …), which `addListener` refuses: a weak table
    /// would release it at once.
    case refusedAsBoxedValue

    /// Whether a broadcast from here calls the listener now or schedules a
    /// call for it (a ``scheduledIfConforming(on:)`` call still depends on
    /// the conformance).
    public var reachesListener: Bool {
        switch self {
        case .calledHere, .scheduled, .scheduledIfConforming: true
        default: false
        }
    }

    /// A sentence for logs and the debugger.
    public var description: String {
        switch self {
        case .calledHere:
            "called here, before the broadcast returns"
        case .scheduled(let actor):
            "scheduled on \(Self.name(of: actor)), where it registered"
        case .scheduledIfConforming(let actor):
            "scheduled on \(Self.name(of: actor)) if it conforms there: "
                + "its conformance can only be checked on that actor"
        case .notRegistered:
            "not registered with this broadcaster (never added, removed, "
                + "or registered with another broadcaster)"
        case .registeredOnlyForOtherProtocols(let protocols):
            "registered only for other protocols: \(protocols.joined(separator: ", "))"
        case .registrationStopped:
            "its registration for this protocol was stopped"
        case .doesNotConform:
            "registered, but does not conform to the protocol here"
        case .refusedAsBoxedValue:
            "refused: a value boxed as AnyObject, which a weak table would release at once"
        }
    }

    /// Actors compare by identity: the same actor instance.
    public static func == (lhs: DeliveryExplanation, rhs: DeliveryExplanation) -> Bool {
        switch (lhs, rhs) {
        case (.calledHere, .calledHere), (.notRegistered, .notRegistered),
            (.registrationStopped, .registrationStopped), (.doesNotConform, .doesNotConform),
            (.refusedAsBoxedValue, .refusedAsBoxedValue):
            true
        case (.scheduled(let left), .scheduled(let right)),
            (.scheduledIfConforming(let left), .scheduledIfConforming(let right)):
            left === right
        case (.registeredOnlyForOtherProtocols(let left), .registeredOnlyForOtherProtocols(let right)):
            left == right
        default:
            false
        }
    }

    private static func name(of actor: any Actor) -> String {
        String(describing: type(of: actor))
    }
}

/// The one cast of a listener to its protocol.
///
/// It stays in unspecialised generic code: the runtime checks a conformance
/// isolated to an actor only in the generic cast (`swift_dynamicCast`); a
/// cast compiled for a concrete protocol succeeds on any thread.
enum Conformance {
    /// Calls `call` with `object` as a `P`, if it is one here; opened to its
    /// class, so the runtime casts from the class, and consumed, so the `P`
    /// takes over the reference.
    @inline(__always)
    static func call<P>(_ object: consuming AnyObject, as _: P.Type, _ call: (P) -> Void) -> Bool {
        callOpened(consume object, as: P.self, call)
    }

    @inline(__always)
    private static func callOpened<Listener: AnyObject, P>(
        _ listener: consuming Listener, as _: P.Type, _ call: (P) -> Void
    ) -> Bool {
        guard let conforming = consume listener as? P else { return false }
        call(conforming)
        return true
    }

    static func conforms<P>(_ object: AnyObject, to _: P.Type) -> Bool {
        call(object, as: P.self) { _ in }
    }

    /// Whether a cast here proves `object` a `P` wherever it is called: off
    /// the main queue, outside every actor, no isolated conformance is used.
    static func isKnownToConformAnywhere<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext)
        -> Bool
    {
        guard context.isolation == nil, !context.isOnMainQueue else { return false }
        return conforms(object, to: P.self)
    }
}

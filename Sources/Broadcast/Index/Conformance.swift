/// Whether a listener is a `P` where a call to it runs: the one place that
/// casts a listener, and that decides what a failed cast means.
///
/// Why it is subtle: a conformance may be isolated to a global actor
/// (`extension Screen: @MainActor P`, or a main-actor class's conformance
/// in a module with `InferIsolatedConformances`). The runtime's generic cast
/// then succeeds only where it can prove the code runs on that actor, so a
/// failed cast means "not a `P` here", which for a listener registered on an
/// actor is not the same as "not a `P` where it is called"
/// (``DeliveryContext`` tells when it is: ``DeliveryContext/castsAreDefinitive(on:)``).
///
/// Everything that needs a listener as a `P` goes through ``cast(_:to:)``:
/// delivery, scheduled calls, awaited calls, sticky replays, index take-in,
/// `listeners(of:)` and `deliveryExplanation(for:to:)`. Where a call goes
/// after a cast is ``Routing``'s decision; whether an index lists a listener
/// is ``isCandidate(_:of:as:knowing:in:)``'s.
enum Conformance {
    /// `object` as a `P`, cast where this runs; nil if it is not one here.
    ///
    /// The only conformance cast in the module, and it must stay in
    /// unspecialised generic code. The runtime checks isolated conformances
    /// only in the generic cast (`swift_dynamicCast`); a cast compiled for a
    /// concrete protocol calls the plain conformance lookup, which does not
    /// check them, so the cast would succeed on any thread (measured with
    /// Swift 6.3.1, debug and release). The module has no inlinable code (CI
    /// refuses `@inlinable`), so no caller's module can specialise this.
    ///
    /// The object is opened to its dynamic class and consumed: the runtime
    /// then casts from the class itself instead of first unwrapping an
    /// `AnyObject`, and the `P` takes over the caller's reference instead of
    /// retaining the listener again (together they took a delivery to 1,000
    /// listeners from 117 to 88 ns; `Docs/PerformanceNotes.md`).
    static func cast<P>(_ object: consuming AnyObject, to _: P.Type) -> P? {
        castOpened(consume object, to: P.self)
    }

    private static func castOpened<Listener: AnyObject, P>(_ listener: consuming Listener, to _: P.Type) -> P? {
        (consume listener) as? P
    }

    /// Whether a protocol's index lists `entry`, whose listener is `object`:
    /// whether a broadcast to `P` may call it, as far as `context` and what
    /// deliveries learned (`known`) can tell.
    ///
    /// A listener with no actor is a candidate if it is a `P` here. One of an
    /// actor is one unless its class is known not to be a `P` on that actor:
    /// a cast that fails where its conformance cannot be checked leaves it a
    /// candidate, and the call scheduled on its actor settles it there.
    static func isCandidate<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: inout KnownNonconformances,
        in context: inout DeliveryContext
    ) -> Bool {
        guard let actor = entry.isolation else { return cast(object, to: P.self) != nil }
        let objectType: AnyObject.Type = type(of: object)
        if known.contains(objectType, P.self, on: actor) { return false }
        if cast(object, to: P.self) != nil { return true }
        guard context.castsAreDefinitive(on: actor) else { return true }
        known.insert(objectType, P.self, on: actor)
        return false
    }
}

extension Conformance {
    /// Whether a cast here proves `object` a `P` wherever it is called; for
    /// diagnostics.
    ///
    /// A cast that succeeds in code isolated to no actor, off the main queue,
    /// cannot have used a conformance isolated to a global actor (the runtime
    /// proves such an actor only on its own executor), so the conformance is
    /// not isolated. Anywhere else a success may come from a conformance
    /// isolated to the actor the code runs on.
    static func isKnownToConformAnywhere<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext)
        -> Bool
    {
        guard context.isolation == nil, !context.isOnMainQueue else { return false }
        return cast(object, to: P.self) != nil
    }
}

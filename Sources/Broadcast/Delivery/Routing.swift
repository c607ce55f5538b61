/// Where one delivery to one listener happens: the one decision behind every
/// path that calls a listener (synchronous broadcasts, scheduled calls,
/// awaited calls, sticky replays) and behind the questions about them
/// (`listeners(of:)`, `deliveryExplanation(for:to:)`).
///
/// The rules, in the order they are applied:
/// - A listener with no actor is called here if it is a `P` here.
/// - A listener of an actor (or any listener, for a main-actor broadcast) is
///   cast and called here when the delivery runs on that actor.
/// - A `Sendable` listener of an actor is also cast here when the delivery
///   runs elsewhere (``ListenerEntry/mayBeCalledOffItsActor``): the
///   runtime's cast succeeds only where the conformance holds, so a success
///   means it may be called here; a failure sends the call to its actor.
/// - Any other listener of an actor is scheduled on it.
/// - A cast that fails on the listener's actor is definitive only where the
///   runtime can check a conformance isolated to it
///   (``DeliveryContext/castsAreDefinitive(on:)``); then the listener's
///   class is recorded as not a `P` there, otherwise the call is scheduled
///   on the actor, which settles it.
enum Routing {
    /// Decides the delivery of a broadcast to `P` to `entry`, whose listener
    /// is `object`, where `context` says the delivery runs, and makes the
    /// call here if that is the decision.
    ///
    /// The call is made through `call` rather than by returning the cast
    /// listener: a decision that carried a `P` would be a generic enum, whose
    /// metadata the runtime looks up on every delivery.
    ///
    /// - Parameters:
    ///   - object: The listener, loaded from `entry`.
    ///   - entry: The listener's registration.
    ///   - listenerType: The protocol of the broadcast.
    ///   - onMainActor: Whether the broadcast calls every listener on the
    ///     main actor (`broadcastOnMainActor`), in place of its own actor.
    ///   - context: Where the delivery runs.
    ///   - answers: Whether the delivery runs on an actor, remembered for
    ///     the run of listeners of that actor.
    ///   - call: Called with the listener as a `P` when it is called here.
    /// - Returns: What became of the listener.
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as listenerType: P.Type, onMainActor: Bool,
        in context: inout DeliveryContext, answers: inout ActorAnswers, calling call: (P) -> Void
    ) -> Route {
        // The box's identity is enough for the common cases, and reading it
        // takes no reference to the box.
        guard let boxID = onMainActor ? IsolationBox.mainActorID : entry.isolationID else {
            guard let listener = Conformance.cast(consume object, to: P.self) else { return .skip }
            call(listener)
            return .called
        }
        let runsThere = answers.isRunning(onActorWith: boxID, in: &context) {
            actor(of: entry, onMainActor: onMainActor)
        }
        guard runsThere || (!onMainActor && entry.mayBeCalledOffItsActor) else {
            return .schedule(on: actor(of: entry, onMainActor: onMainActor))
        }
        let objectType: AnyObject.Type = type(of: object)
        if let listener = Conformance.cast(consume object, to: P.self) {
            call(listener)
            return .called
        }
        let place = actor(of: entry, onMainActor: onMainActor)
        guard runsThere, context.castsAreDefinitive(on: place) else { return .schedule(on: place) }
        // Only the listener's own actor settles its conformance: a
        // main-actor broadcast says nothing about a listener of another actor.
        guard !onMainActor || entry.isolationID == IsolationBox.mainActorID else { return .skip }
        return .skipAndRecord(LearnedNonconformance(type: objectType, actor: place))
    }

    /// The actor a call to `entry` runs on, when it has one.
    private static func actor(of entry: ListenerEntry, onMainActor: Bool) -> any Actor {
        guard !onMainActor, let actor = entry.isolation else { return MainActor.shared }
        return actor
    }
}

/// The delivery ``Routing`` decided for one listener.
enum Route {
    /// The listener was called here.
    case called
    /// Schedule the call on this actor (the listener's, or the main actor
    /// for a main-actor broadcast).
    case schedule(on: any Actor)
    /// Do nothing: it is not a `P` where it would be called.
    case skip
    /// Do nothing, and record that the listener's class is not a `P` on its
    /// actor, so that `P`'s index drops it.
    case skipAndRecord(LearnedNonconformance)
}

/// A listener class found, where that is definitive, not to be a `P` on the
/// actor its listener registered from; recorded under the lock after the
/// calls (``BroadcasterStorage/recordNonconformance(of:to:on:)``).
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}

/// Whether the delivery runs on a listener's actor, asked once per run of
/// listeners that share an ``IsolationBox`` (every main-actor listener shares
/// one), not once per listener.
struct ActorAnswers {
    /// The box asked about last, by identity: the snapshot keeps every box
    /// alive while the delivery runs, so an identity cannot be reused.
    private var lastBox: ObjectIdentifier?
    private var lastAnswer = false

    /// Whether the delivery runs on the actor of the box identified by
    /// `id`; `actor` reads that actor, only when the answer is not known yet.
    mutating func isRunning(
        onActorWith id: ObjectIdentifier, in context: inout DeliveryContext, _ actor: () -> any Actor
    ) -> Bool {
        if id == lastBox { return lastAnswer }
        lastAnswer = context.isRunning(on: actor())
        lastBox = id
        return lastAnswer
    }
}

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
    /// retaining the listener again (`Docs/PerformanceNotes.md` has the
    /// measurements).
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

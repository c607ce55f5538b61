/// Where one call to one listener runs: the one decision behind every path
/// that calls a listener, an index's take-in, `listeners(of:)` and
/// `deliveryExplanation(for:to:)`.
///
/// A listener with no actor is called here if it is a `P` here. One of an
/// actor (any, for a main-actor broadcast) is cast here when the delivery
/// runs on that actor, or, if `Sendable`, anywhere its conformance holds;
/// otherwise its call is scheduled on the actor.
enum Routing {
    /// Decides the delivery to `entry`, and makes the call if it is made here
    /// (through `call`: a returned `P` would make the result a generic enum,
    /// whose metadata is looked up on every delivery).
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, onMainActor: Bool,
        in context: inout DeliveryContext, answers: inout ActorAnswers, calling call: (P) -> Void
    ) -> Route {
        // The box's identity settles the common cases without a reference to it.
        guard let boxID = onMainActor ? IsolationBox.mainActorID : entry.isolationID else {
            if entry.conformsOnlyOnMainActor(as: P.self) {
                return routeToMainActor(consume object, as: P.self, in: &context, calling: call)
            }
            if Conformance.call(consume object, as: P.self, call) { return .called }
            return afterFailedCastWithNoActor(of: entry, in: &context)
        }
        let runsThere = answers.isRunning(onActorWith: boxID, in: &context) {
            actor(of: entry, onMainActor: onMainActor)
        }
        guard runsThere || (!onMainActor && entry.mayBeCalledOffItsActor) else {
            if onMainActor, entry.isUnsettledWithNoActor {
                return mainActorRoute(ofUnsettled: consume object, of: entry, as: P.self, in: &context)
            }
            return .schedule(on: actor(of: entry, onMainActor: onMainActor))
        }
        let objectType: AnyObject.Type = type(of: object)
        if Conformance.call(consume object, as: P.self, call) { return .called }
        return afterFailedCast(
            of: entry, onMainActor: onMainActor, type: objectType, runsThere: runsThere, in: &context)
    }

    /// What a failed cast means for a listener of an actor: where the runtime
    /// can check a conformance isolated to the actor the call runs on, not a
    /// `P` there (recorded, so that indexes drop it); anywhere else unknown,
    /// so the call goes to that actor, which settles it.
    @inline(never)
    private static func afterFailedCast(
        of entry: ListenerEntry, onMainActor: Bool, type: AnyObject.Type, runsThere: Bool,
        in context: inout DeliveryContext
    ) -> Route {
        let place = actor(of: entry, onMainActor: onMainActor)
        guard runsThere, context.castsAreDefinitive(on: place) else { return .schedule(on: place) }
        return .skipAndRecord(LearnedNonconformance(type: type, actor: place))
    }

    /// A listener with no actor the main actor found a `P` only there: called
    /// where that is proven, otherwise scheduled there without a cast that
    /// would fail.
    @inline(never)
    private static func routeToMainActor<P>(
        _ object: consuming AnyObject, as _: P.Type, in context: inout DeliveryContext, calling call: (P) -> Void
    ) -> Route {
        guard context.castsAreDefinitive(on: MainActor.shared) else { return .schedule(on: MainActor.shared) }
        let objectType: AnyObject.Type = type(of: object)
        if Conformance.call(consume object, as: P.self, call) { return .called }
        return .skipAndRecord(LearnedNonconformance(type: objectType, actor: MainActor.shared))
    }

    /// What a failed cast means for a user's listener with no actor.
    ///
    /// Where the main actor's conformances are seen, not a `P` (recorded, so
    /// that indexes drop it). Anywhere else, for a listener the main actor
    /// has found a conformance isolated to it, the call goes there, as for
    /// one registered from main-actor code; any other cannot be told from
    /// one that does not conform, so its call goes there too, and the main
    /// actor's cast makes it or not and settles it. Broadcast's own
    /// listeners, and runtimes that do not check isolated conformances, have
    /// no such conformance: a failed cast is definitive.
    @inline(never)
    private static func afterFailedCastWithNoActor(of entry: ListenerEntry, in context: inout DeliveryContext)
        -> Route
    {
        guard entry.conformanceMayBeIsolated, ListenerEntry.runtimeChecksIsolatedConformances else { return .skip }
        guard context.castsAreDefinitive(on: MainActor.shared) else {
            return entry.hasConformanceIsolatedToMainActor ? .schedule(on: MainActor.shared) : .settleOnMainActor
        }
        guard let object = entry.liveObject else { return .skip }
        return .skipAndRecord(LearnedNonconformance(type: type(of: object), actor: MainActor.shared))
    }

    /// A main-actor broadcast made elsewhere, to a listener with no actor the
    /// main actor has not settled: scheduled if it conforms here (it does
    /// wherever it is called), otherwise left to the main actor to settle,
    /// as a broadcast made here would.
    @inline(never)
    private static func mainActorRoute<P>(
        ofUnsettled object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type,
        in context: inout DeliveryContext
    ) -> Route {
        if Conformance.conforms(object, to: P.self) { return .schedule(on: MainActor.shared) }
        return afterFailedCastWithNoActor(of: entry, in: &context)
    }

    /// Whether `P`'s index lists `entry`: unless `known` says its class is not
    /// a `P` on its actor, as the route of a broadcast made here decides.
    static func admits<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext, learned: inout [LearnedNonconformance]
    ) -> Bool {
        if let actor = actorSettling(entry), known.contains(type(of: object), ObjectIdentifier(P.self), on: actor) {
            return false
        }
        var answers = ActorAnswers()
        switch route(
            object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
        {
        case .called, .schedule, .settleOnMainActor:
            // An unsettled listener stays listed: the main actor settles it.
            return true
        case .skip:
            return false
        case .skipAndRecord(let nonconformance):
            learned.append(nonconformance)
            return false
        }
    }

    /// The actor whose cast settles whether `entry` conforms: its own, or,
    /// for a user's listener with no actor, the main actor.
    private static func actorSettling(_ entry: ListenerEntry) -> (any Actor)? {
        if let actor = entry.isolation { return actor }
        return entry.conformanceMayBeIsolated ? MainActor.shared : nil
    }

    private static func actor(of entry: ListenerEntry, onMainActor: Bool) -> any Actor {
        guard !onMainActor, let actor = entry.isolation else { return MainActor.shared }
        return actor
    }
}

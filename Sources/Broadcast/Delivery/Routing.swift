/// What routing decided for one call to one listener or handler: the one
/// decision behind every path that calls one (a broadcast, a post, a sticky
/// replay, a scheduled call, an awaited broadcast) and behind an index's
/// take-in, `listeners(of:)`, `listenerCount(of:)` and
/// `deliveryExplanation(for:to:)`.
///
/// Each case means one thing whatever path produced it. A synchronous
/// delivery carries it out in ``DeliveryRun/note(_:for:)`` and
/// ``Broadcaster/finish(_:as:onMainActor:sticky:_:)``; an awaited one, which
/// hops instead of scheduling, in ``AwaitedDelivery``.
enum Route {
    /// The call was made here.
    case called
    /// The call runs on the actor, counted: scheduled on its mailbox, or
    /// (awaited) made there after a hop.
    case schedule(on: any Actor)
    /// Not a listener of this call.
    case skip
    /// Skip, and record that the class is not a `P` on its actor.
    case skipAndRecord(LearnedNonconformance)
    /// A listener with no actor whose cast failed where a conformance
    /// isolated to the main actor cannot be checked, and that the main actor
    /// has not settled yet: its call goes to the main actor, not counted,
    /// whose cast makes it or not; then the main actor settles the listener
    /// (one that conformed there is marked as conforming only there). The
    /// index keeps it. A call scheduled this way (a broadcast, a post, a
    /// replay) waits within ``UnsettledCallLimit``; an awaited broadcast's
    /// caller awaits it, so it takes no room.
    case settleOnMainActor

    /// Whether the call counts as made or scheduled: a delivery's count and
    /// `listenerCount(of:)`.
    var isCounted: Bool {
        switch self {
        case .called, .schedule: true
        case .skip, .skipAndRecord, .settleOnMainActor: false
        }
    }

    /// Whether the protocol's index keeps listing the listener (an unsettled
    /// one stays: the main actor settles it).
    var keepsListed: Bool {
        switch self {
        case .called, .schedule, .settleOnMainActor: true
        case .skip, .skipAndRecord: false
        }
    }
}

/// A listener class proved not to be a `P` on an actor.
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}

/// Where one call to one listener object runs, decided with its one cast
/// (``Conformance``).
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
        let route = route(
            object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
        if case .skipAndRecord(let nonconformance) = route { learned.append(nonconformance) }
        return route.keepsListed
    }

    /// The actor whose cast settles whether `entry` conforms: its own, or,
    /// for a user's listener with no actor, the main actor.
    static func actorSettling(_ entry: ListenerEntry) -> (any Actor)? {
        if let actor = entry.isolation { return actor }
        return entry.conformanceMayBeIsolated ? MainActor.shared : nil
    }

    private static func actor(of entry: ListenerEntry, onMainActor: Bool) -> any Actor {
        guard !onMainActor, let actor = entry.isolation else { return MainActor.shared }
        return actor
    }
}

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

    /// Whether a cast here proves `object` a `P` wherever it is called
    /// (``DeliveryContext/castProvesConformanceAnywhere``).
    static func isKnownToConformAnywhere<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext)
        -> Bool
    {
        context.castProvesConformanceAnywhere && conforms(object, to: P.self)
    }
}

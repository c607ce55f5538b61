extension Broadcaster {
    /// The one path behind every synchronous post: the members read as a
    /// protocol broadcast reads them, then the calls through the post's own
    /// loop (``Delivery/deliverPost(to:sticky:in:into:_:handling:adapting:)``).
    ///
    /// `handle` is the post's typed call to its closure handlers, and it
    /// makes its escaping form too. `subject`, the event type, is what the
    /// tap sees (``TapWatch``); nil for a post the library makes for itself. Nothing on this path casts to `P`
    /// inline: a post met by a handler never looks up `Optional<P>`'s
    /// metadata, which the cast needs (about 320 instructions, a sixth of a
    /// post to one handler); an object conforming to ``EventListener`` with
    /// no adapter that holds is cast out of line (``HandlerRouting``).
    func sendPost<P>(
        to _: P.Type, watchedAs subject: (any Any.Type)?, from isolation: (any Actor)?, calling call: (P) -> Void,
        handling handle: HandlerCall, adapting adapt: Adapting<P>, makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        let watch = watch(.post, of: subject, sticky: false)
        var context = DeliveryContext(isolation: isolation)
        var run = DeliveryRun()
        switch storage.members(of: P.self as Any.Type, singling: true) {
        case .one(let entry):
            Delivery.deliverPost(to: entry, in: &context, into: &run, call, handling: handle, adapting: adapt)
        case let read:
            let members = members(from: read, as: P.self, in: &context)
            Delivery.deliverPost(
                to: members, sticky: nil, in: &context, into: &run, call, handling: handle, adapting: adapt)
        }
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: false, sticky: nil, makeEscaping())
        }
        watch?.observe(run)
        return run.count
    }

    /// A sticky post: recorded as it reads the members
    /// (``recordSticky(_:as:in:)``), then delivered through the post's loop,
    /// each call claiming its generation.
    func sendStickyPost<P>(
        _ sticky: StickyBroadcast, to _: P.Type, watchedAs subject: any Any.Type, from isolation: (any Actor)?,
        calling call: (P) -> Void, escaping calls: EscapingCalls<P>, adapting adapt: Adapting<P>
    ) -> Int {
        let watch = watch(.post, of: subject, sticky: true)
        var context = DeliveryContext(isolation: isolation)
        let (members, generation) = recordSticky(sticky, as: P.self, in: &context)
        var run = DeliveryRun()
        Delivery.deliverPost(
            to: members, sticky: generation, in: &context, into: &run, call,
            handling: { handler, _ in calls.handle?(handler) }, adapting: adapt)
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: false, sticky: generation, calls)
        }
        watch?.observe(run)
        return run.count
    }
}

extension Delivery {
    /// The calls of a post, in registration order, with no lock held: each
    /// member routed by ``HandlerRouting``, a closure handler called through
    /// `handle`, an ``EventListener`` object through its adapter or `call`.
    @inline(__always)
    static func deliverPost<P>(
        to members: [ListenerEntry], sticky: StickyGeneration?, in context: inout DeliveryContext,
        into run: inout DeliveryRun, _ call: (P) -> Void, handling handle: HandlerCall, adapting adapt: Adapting<P>
    ) {
        if let sticky {
            return deliverPost(
                to: members, claiming: sticky, in: &context, into: &run, call, handling: handle, adapting: adapt)
        }
        var answers = ActorAnswers()
        for entry in members {
            guard
                let route = HandlerRouting.route(
                    entry, in: &context, answers: &answers, calling: call, handling: handle, adapting: adapt)
            else { continue }
            run.note(route, for: entry)
        }
    }

    /// A post's delivery to a single member.
    @inline(__always)
    static func deliverPost<P>(
        to entry: ListenerEntry, in context: inout DeliveryContext, into run: inout DeliveryRun,
        _ call: (P) -> Void, handling handle: HandlerCall, adapting adapt: Adapting<P>
    ) {
        var answers = ActorAnswers()
        guard
            let route = HandlerRouting.route(
                entry, in: &context, answers: &answers, calling: call, handling: handle, adapting: adapt)
        else { return }
        run.note(route, for: entry)
    }

    /// Each call of a sticky post, to a listener or a handler, claims its
    /// generation first (``StickyCall/claiming(_:for:_:)``); one overtaken is
    /// not counted.
    private static func deliverPost<P>(
        to members: [ListenerEntry], claiming sticky: StickyGeneration, in context: inout DeliveryContext,
        into run: inout DeliveryRun, _ call: (P) -> Void, handling handle: HandlerCall, adapting adapt: Adapting<P>
    ) {
        var answers = ActorAnswers()
        for entry in members {
            var claimed = false
            guard
                let route = HandlerRouting.route(
                    entry, in: &context, answers: &answers,
                    calling: { listener in claimed = StickyCall.claiming(sticky, for: entry) { call(listener) } },
                    handling: { handler, _ in
                        claimed = StickyCall.claiming(sticky, for: entry) { handle(handler, nil) }
                    }, adapting: adapt)
            else { continue }
            if case .called = route, !claimed { continue }
            run.note(route, for: entry)
        }
    }
}

/// A post's call to one of its closure handlers (``HandlerRouting``): typed,
/// made by the post that knows the event; given, for an
/// ``EventListenerAdapter``, the listener the delivery loaded.
@usableFromInline
typealias HandlerCall = (consuming EventHandler, consuming AnyObject?) -> Void

/// Where each call of a post runs.
///
/// A closure handler's is decided from the entry alone: a handler is a typed closure the library holds, so unlike a
/// listener object it needs no cast to a protocol to be found or called.
///
/// The decision is ``Routing``'s for a listener whose conformance holds
/// everywhere (a ``ClosureListener`` has no isolated conformance): a
/// handler with no actor is called here; one of an actor where the post
/// runs on that actor, or anywhere if it is `Sendable`; otherwise its call
/// is scheduled on the actor.
enum HandlerRouting {
    /// The route to `entry`'s listener, a member of `P`'s post, calling it
    /// here if that is where it runs; nil if it is gone or unregistered.
    ///
    /// A handler the entry holds (a token's, ``ListenerEntry/heldHandler``)
    /// is called with no weak load: the entry keeps it until the token
    /// unregisters it, which retires the entry first. Any other listener is
    /// loaded through its weak reference and routed as below.
    @inline(__always)
    static func route<P>(
        _ entry: ListenerEntry, in context: inout DeliveryContext, answers: inout ActorAnswers,
        calling call: (P) -> Void, handling handle: HandlerCall, adapting adapt: Adapting<P>
    ) -> Route? {
        if let handler = entry.heldHandler {
            guard !entry.isRetired else { return nil }
            guard handler.postKey == ObjectIdentifier(P.self) else { return .skip }
            return route(consume handler, loaded: nil, of: entry, in: &context, answers: &answers, handle)
        }
        guard let object = entry.liveObject else { return nil }
        return route(
            consume object, of: entry, in: &context, answers: &answers, calling: call, handling: handle,
            adapting: adapt)
    }

    /// The route to `object`, a member of `P`'s post, calling it here if
    /// that is where it runs: a closure handler through `handle`; an
    /// ``EventListener`` object through the ``EventListenerAdapter`` its
    /// entry keeps, as a handler, where the adapter's proof holds, or else
    /// cast by ``Routing`` out of line, and given an adapter (`adapt`, which
    /// the calls of a post other than a live one leave returning nil) where
    /// the cast's success is proven.
    ///
    /// A handler is recognised by its entry (``ListenerEntry/isHandler``,
    /// which makes no reference to it and asks the runtime nothing); the cast
    /// to its class then takes over the weak load's reference (`consume`),
    /// as ``Routing``'s does: a retain and a release fewer, both on the slow
    /// path of a weakly referenced object. A handler of another post is
    /// skipped.
    @inline(__always)
    private static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, in context: inout DeliveryContext,
        answers: inout ActorAnswers, calling call: (P) -> Void, handling handle: HandlerCall,
        adapting adapt: Adapting<P>
    ) -> Route {
        guard entry.isHandler else {
            return routeListener(
                consume object, of: entry, in: &context, answers: &answers, calling: call, handling: handle,
                adapting: adapt)
        }
        guard let handler = consume object as? EventHandler, handler.postKey == ObjectIdentifier(P.self) else {
            return .skip
        }
        return route(consume handler, loaded: nil, of: entry, in: &context, answers: &answers, handle)
    }

    /// A post's ``EventListener`` object: through its adapter, or cast.
    @inline(__always)
    private static func routeListener<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, in context: inout DeliveryContext,
        answers: inout ActorAnswers, calling call: (P) -> Void, handling handle: HandlerCall,
        adapting adapt: Adapting<P>
    ) -> Route {
        if let adapter = entry.eventListenerAdapter {
            guard adapter.postKey == ObjectIdentifier(P.self), holds(adapter.proof, for: entry, in: &context) else {
                return cast(consume object, of: entry, as: P.self, in: &context, answers: &answers, calling: call)
            }
            // Called with the object loaded here: the adapter's own weak
            // reference is for the calls scheduled on an actor.
            return route(consume adapter, loaded: consume object, of: entry, in: &context, answers: &answers, handle)
        }
        return castAndAdapt(
            consume object, of: entry, as: P.self, in: &context, answers: &answers, calling: call, adapting: adapt)
    }

    /// A post's ``EventListener`` object routed by ``Routing``'s cast.
    ///
    /// Out of line, like ``castAndAdapt(_:of:as:in:answers:calling:adapting:)``,
    /// so that a post through an adapter never looks up `Optional<P>`'s
    /// metadata, which the cast needs (about 320 instructions).
    @inline(never)
    private static func cast<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, in context: inout DeliveryContext,
        answers: inout ActorAnswers, calling call: (P) -> Void
    ) -> Route {
        Routing.route(
            consume object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: call)
    }

    /// A post's ``EventListener`` object with no adapter yet: cast, and
    /// given one where the cast's success is proven.
    @inline(never)
    private static func castAndAdapt<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, in context: inout DeliveryContext,
        answers: inout ActorAnswers, calling call: (P) -> Void, adapting adapt: Adapting<P>
    ) -> Route {
        guard let proof = proof(for: entry, in: &context) else {
            return cast(consume object, of: entry, as: P.self, in: &context, answers: &answers, calling: call)
        }
        var made: EventListenerAdapter?
        let route = Routing.route(
            consume object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers
        ) { listener in
            call(listener)
            made = adapt(listener, proof)
        }
        if let made { entry.keep(made) }
        return route
    }

    /// Where a cast made now for `entry` would prove its conformance:
    /// anywhere, where ``DeliveryContext/castProvesConformanceAnywhere``; where
    /// the runtime's cast is definitive for the actor the entry's call runs
    /// on (its own, or for one with no actor the main actor), there; nowhere
    /// else (another actor may hold a conformance isolated to it).
    @inline(never)
    private static func proof(for entry: ListenerEntry, in context: inout DeliveryContext)
        -> EventListenerAdapter.Proof?
    {
        if context.castProvesConformanceAnywhere { return .anywhere }
        guard let box = entry.isolationBox else {
            return context.castsAreDefinitiveOnMainActor ? .on(IsolationBox.mainActorID) : nil
        }
        return context.castsAreDefinitive(on: box.actor) ? .on(ObjectIdentifier(box)) : nil
    }

    /// Whether a cast made here would succeed as the one behind `proof` did.
    ///
    /// A proof made on the main actor holds on the main thread, asked first
    /// (a comparison with a kept thread identifier): the runtime's cast
    /// succeeds there for a conformance isolated to the main actor, also
    /// inside another queue's `sync` block (measured on Linux), and the main
    /// actor's code runs on no other thread while the main thread runs. The
    /// full question (is this the main queue, in a task) costs about 300
    /// instructions per post, and answers the same everywhere else.
    @inline(__always)
    private static func holds(
        _ proof: EventListenerAdapter.Proof, for entry: ListenerEntry, in context: inout DeliveryContext
    ) -> Bool {
        guard case .on(let place) = proof else { return true }
        if place == IsolationBox.mainActorID {
            return context.isOnMainThread || context.castsAreDefinitiveOnMainActor
        }
        guard let box = entry.isolationBox, ObjectIdentifier(box) == place else { return false }
        return context.castsAreDefinitive(on: box.actor)
    }

    @inline(__always)
    private static func route(
        _ handler: consuming EventHandler, loaded object: consuming AnyObject?, of entry: ListenerEntry,
        in context: inout DeliveryContext, answers: inout ActorAnswers, _ handle: HandlerCall
    ) -> Route {
        if let box = entry.isolationBox, !entry.mayBeCalledOffItsActor,
            !answers.isRunning(onActorWith: ObjectIdentifier(box), in: &context, { box.actor })
        {
            return .schedule(on: box.actor)
        }
        handle(consume handler, consume object)
        return .called
    }

    /// Whether `P`'s index lists `entry`: a handler (told by its entry, as
    /// ``route(_:of:in:answers:calling:handling:adapting:)`` tells it) if it
    /// listens to `P`'s post, decided without a cast to `P`; any other object
    /// as ``Routing`` decides.
    static func admits<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext, learned: inout [LearnedNonconformance]
    ) -> Bool {
        if entry.isHandler { return (object as? EventHandler)?.postKey == ObjectIdentifier(P.self) }
        return Routing.admits(object, of: entry, as: P.self, knowing: known, in: &context, learned: &learned)
    }
}

/// A live post's maker of an ``EventListenerAdapter`` for an object its cast
/// proved a `P`.
///
/// Typed, made by the post that knows the event; a non-optional,
/// non-escaping parameter with no default, so that no delivery allocates a
/// context for it (an optional closure escapes, and so does a generic
/// default argument's: `broadcast(to:with:)` allocated one per broadcast).
/// A scheduled call or a replay of a post passes `{ _, _ in nil }`.
@usableFromInline
typealias Adapting<P> = (P, EventListenerAdapter.Proof) -> EventListenerAdapter?

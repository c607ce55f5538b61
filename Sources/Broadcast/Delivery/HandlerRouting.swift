/// Where a post's call to one of its closure handlers runs, decided from the
/// entry alone: a handler is a typed closure the library holds, so unlike a
/// listener object it needs no cast to a protocol to be found or called.
///
/// The decision is ``Routing``'s for a listener whose conformance holds
/// everywhere (a ``ClosureListener`` has no isolated conformance): a
/// handler with no actor is called here; one of an actor where the post
/// runs on that actor, or anywhere if it is `Sendable`; otherwise its call
/// is scheduled on the actor.
enum HandlerRouting {
    /// The route to `object`, a handler of `P`'s post or a listener, calling
    /// it here if that is where it runs: a handler through `handle`, only
    /// when `reachesHandlers` (a post); a listener through `call`, after
    /// ``Routing``'s cast.
    ///
    /// A handler is recognised by its class first, which makes no reference
    /// to it; the cast then takes over the weak load's reference (`consume`),
    /// as ``Routing``'s does: a retain and a release fewer, both on the slow
    /// path of a weakly referenced object. A handler of another post is
    /// skipped: it conforms to no protocol.
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, onMainActor: Bool,
        reachesHandlers: Bool, in context: inout DeliveryContext, answers: inout ActorAnswers,
        calling call: (P) -> Void, handling handle: (EventHandler) -> Void
    ) -> Route {
        guard reachesHandlers, type(of: object) is EventHandler.Type else {
            return Routing.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers,
                calling: call)
        }
        guard let handler = consume object as? EventHandler, handler.postKey == ObjectIdentifier(P.self) else {
            return .skip
        }
        return route(handler, of: entry, in: &context, answers: &answers, handle)
    }

    @inline(__always)
    private static func route(
        _ handler: EventHandler, of entry: ListenerEntry, in context: inout DeliveryContext,
        answers: inout ActorAnswers, _ handle: (EventHandler) -> Void
    ) -> Route {
        if let box = entry.isolationBox, !entry.mayBeCalledOffItsActor,
            !answers.isRunning(onActorWith: ObjectIdentifier(box), in: &context, { box.actor })
        {
            return .schedule(on: box.actor)
        }
        handle(handler)
        return .called
    }

    /// Whether `P`'s index lists `entry`: a handler if it listens to `P`'s
    /// post, decided without a cast to `P`; any other object as ``Routing``
    /// decides.
    static func admits<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext, learned: inout [LearnedNonconformance]
    ) -> Bool {
        if let handler = object as? EventHandler { return handler.postKey == ObjectIdentifier(P.self) }
        return Routing.admits(object, of: entry, as: P.self, knowing: known, in: &context, learned: &learned)
    }
}

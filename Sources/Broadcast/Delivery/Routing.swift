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
    /// is `object`, where `context` says the delivery runs.
    ///
    /// - Parameters:
    ///   - onMainActor: Whether the broadcast calls every listener on the
    ///     main actor (`broadcastOnMainActor`), in place of its own actor.
    ///   - answers: Whether the delivery runs on an actor, remembered for
    ///     the run of listeners of that actor.
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, onMainActor: Bool,
        in context: inout DeliveryContext, answers: inout ActorAnswers
    ) -> Route<P> {
        let box = onMainActor ? IsolationBox.mainActor : entry.isolationBox
        guard let box else {
            guard let listener = Conformance.cast(consume object, to: P.self) else { return .skip }
            return .call(listener)
        }
        let runsThere = answers.isRunning(on: box, in: &context)
        guard runsThere || (!onMainActor && entry.mayBeCalledOffItsActor) else { return .schedule(on: box.actor) }
        let objectType: AnyObject.Type = type(of: object)
        if let listener = Conformance.cast(consume object, to: P.self) { return .call(listener) }
        guard runsThere, context.castsAreDefinitive(on: box.actor) else { return .schedule(on: box.actor) }
        // Only the listener's own actor settles its conformance: a
        // main-actor broadcast says nothing about a listener of another actor.
        guard entry.isolationBox === box else { return .skip }
        return .skipAndRecord(LearnedNonconformance(type: objectType, actor: box.actor))
    }
}

/// The delivery ``Routing`` decided for one listener.
enum Route<P> {
    /// Call the listener here, now.
    case call(P)
    /// Schedule the call on the listener's actor.
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

    /// Whether the delivery runs on `box`'s actor.
    mutating func isRunning(on box: IsolationBox, in context: inout DeliveryContext) -> Bool {
        let id = ObjectIdentifier(box)
        if id == lastBox { return lastAnswer }
        lastAnswer = context.isRunning(on: box.actor)
        lastBox = id
        return lastAnswer
    }
}

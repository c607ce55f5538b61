/// The calls of a synchronous broadcast: one pass over a snapshot of an
/// index's members, with no lock held.
///
/// Before each call it re-checks that the entry is still registered and its
/// listener alive, which is what makes a removal or release during a
/// broadcast take effect for the rest of that broadcast. A listener
/// registered on an actor is called only where the broadcast runs on that
/// actor; otherwise it is collected into ``ScheduledDeliveries`` for its
/// actor's mailbox.
///
/// Generic and not inlinable: it is compiled once, in this module, and the
/// cast it makes (``Conformance/cast(_:to:)``) stays the runtime's
/// isolation-checking one.
enum Delivery {
    /// Calls every member that can be called where the broadcast runs, and
    /// collects the others into `scheduled`.
    ///
    /// - Parameters:
    ///   - members: A snapshot of the index, in registration order.
    ///   - listenerType: The protocol the members are delivered as.
    ///   - override: The actor every member is called on
    ///     (``Broadcaster/broadcastOnMainActor(to:sticky:isolation:_:)``), in
    ///     place of the one each registered from.
    ///   - context: Where the broadcast runs.
    ///   - scheduled: Collects the members to call on their actors.
    ///   - learned: Collects the listener classes found, definitively, not
    ///     to be `P`s on their own actor.
    ///   - call: Makes the typed call.
    /// - Returns: The number of calls made or scheduled.
    static func deliver<P>(
        to members: [ListenerEntry],
        as listenerType: P.Type,
        override: IsolationBox?,
        in context: inout DeliveryContext,
        scheduled: inout ScheduledDeliveries,
        learned: inout [LearnedNonconformance],
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            // The actor's identity is enough for the common case, and reading
            // it takes no reference to the box (two atomic operations per
            // listener, a tenth of a delivery, measured).
            guard let actorID = override.map(ObjectIdentifier.init) ?? entry.isolationID else {
                // No actor: called here if it is a `P` here, else skipped.
                if let listener = Conformance.cast(consume object, to: P.self) {
                    call(listener)
                    count += 1
                }
                continue
            }
            if answers.isRunning(onActorWith: actorID, in: &context, { override?.actor ?? entry.isolation }),
                let listener = Conformance.cast(consume object, to: P.self)
            {
                call(listener)
                count += 1
            } else if notCalledHere(entry, override: override, in: &context, scheduled: &scheduled, learned: &learned) {
                count += 1
            }
        }
        return count
    }

    /// What becomes of a listener of an actor that the broadcast does not
    /// call here: scheduled on its actor (returns true: it counts), or,
    /// where a failed cast is definitive, recorded as not a `P` there.
    ///
    /// Out of the loop: it is the rare path, and keeping it apart keeps the
    /// loop's common path short.
    private static func notCalledHere(
        _ entry: ListenerEntry, override: IsolationBox?, in context: inout DeliveryContext,
        scheduled: inout ScheduledDeliveries, learned: inout [LearnedNonconformance]
    ) -> Bool {
        guard let box = override ?? entry.isolationBox else { return false }
        guard context.isRunning(on: box.actor) else {
            scheduled.append(entry, on: box.actor)
            return true
        }
        // It runs there, so the cast failed.
        switch Conformance.afterFailedCast(registeredOn: box.actor, in: &context) {
        case .skip:
            return false
        case .recordNonconformance:
            // Only the listener's own actor settles its conformance: a
            // main-actor override says nothing about another actor. (The
            // cast took the listener; this path loads it again.)
            if entry.isolationBox === box, let object = entry.object {
                learned.append(LearnedNonconformance(type: type(of: object), actor: box.actor))
            }
            return false
        case .schedule:
            scheduled.append(entry, on: box.actor)
            return true
        }
    }

    /// Runs a scheduled batch, on `actor`: the same re-checks, then the cast,
    /// which is definitive there.
    ///
    /// - Returns: The number of calls made.
    static func deliverScheduled<P>(
        _ entries: [ListenerEntry],
        as _: P.Type,
        on actor: any Actor,
        learned: inout [LearnedNonconformance],
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        // The batch runs in a task isolated to `actor` (its mailbox's drain).
        var context = DeliveryContext(isolation: actor)
        for entry in entries {
            guard let object = entry.liveObject else { continue }
            let objectType: AnyObject.Type = type(of: object)
            if let listener = Conformance.cast(consume object, to: P.self) {
                call(listener)
                count += 1
            } else if entry.isolation === actor,
                Conformance.afterFailedCast(registeredOn: actor, in: &context) == .recordNonconformance
            {
                learned.append(LearnedNonconformance(type: objectType, actor: actor))
            }
        }
        return count
    }
}

/// A listener class found, where that is definitive, not to be a `P` on the
/// actor its listener registered from; recorded under the lock after the
/// calls (``BroadcasterStorage/recordNonconformance(of:to:on:)``).
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}

/// Whether the broadcast runs on a listener's actor, asked once per run of
/// listeners that share an ``IsolationBox`` (every main-actor listener shares
/// one), not once per listener.
struct ActorAnswers {
    /// The box asked about last, by identity: the snapshot keeps every box
    /// alive while the broadcast runs, so an identity cannot be reused.
    private var lastBox: ObjectIdentifier?
    private var lastAnswer = false

    /// Whether the broadcast runs on the actor of the box identified by
    /// `id`; `actor` reads that actor, only when the answer is not known yet.
    mutating func isRunning(
        onActorWith id: ObjectIdentifier, in context: inout DeliveryContext, _ actor: () -> (any Actor)?
    ) -> Bool {
        if id == lastBox { return lastAnswer }
        guard let actor = actor() else { return false }
        lastAnswer = context.isRunning(on: actor)
        lastBox = id
        return lastAnswer
    }
}

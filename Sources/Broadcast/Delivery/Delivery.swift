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
            let box = override ?? entry.isolationBox
            if let box, !answers.isRunning(onActorOf: box, in: &context) {
                scheduled.append(entry, on: box.actor)
                count += 1
                continue
            }
            let objectType: AnyObject.Type = type(of: object)
            if let listener = Conformance.cast(object, to: P.self) {
                call(listener)
                count += 1
                continue
            }
            switch Conformance.afterFailedCast(registeredOn: box?.actor, in: &context) {
            case .skip:
                break
            case .recordNonconformance:
                // Only the listener's own actor settles its conformance: a
                // main-actor override says nothing about another actor.
                if let box, entry.isolationBox === box {
                    learned.append(LearnedNonconformance(type: objectType, actor: box.actor))
                }
            case .schedule:
                if let box { scheduled.append(entry, on: box.actor) }
                count += 1
            }
        }
        return count
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
            if let listener = Conformance.cast(object, to: P.self) {
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
    private var lastBox: IsolationBox?
    private var lastAnswer = false

    mutating func isRunning(onActorOf box: IsolationBox, in context: inout DeliveryContext) -> Bool {
        if box === lastBox { return lastAnswer }
        lastAnswer = context.isRunning(on: box.actor)
        lastBox = box
        return lastAnswer
    }
}

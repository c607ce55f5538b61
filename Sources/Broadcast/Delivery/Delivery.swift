/// The calls of a synchronous broadcast: one pass over a snapshot of an
/// index's members, with no lock held.
///
/// Before each call it re-checks that the entry is still registered and its
/// listener alive, which is what makes a removal or release during a
/// broadcast take effect for the rest of that broadcast. ``Routing`` decides
/// each call: here, or collected into ``ScheduledDeliveries`` for its
/// actor's mailbox. A call of a sticky broadcast is made only if no newer
/// state of its protocol reached the listener first (``StickyProgress``).
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
    ///   - onMainActor: Whether every member is called on the main actor
    ///     (``Broadcaster/broadcastOnMainActor(to:sticky:isolation:_:)``),
    ///     in place of the one each registered from.
    ///   - sticky: For a sticky broadcast, its generation.
    ///   - context: Where the broadcast runs.
    ///   - scheduled: Collects the members to call on their actors.
    ///   - learned: Collects the listener classes found, definitively, not
    ///     to be `P`s on their own actor.
    ///   - call: Makes the typed call.
    /// - Returns: The number of calls made or scheduled.
    static func deliver<P>(
        to members: [ListenerEntry],
        as listenerType: P.Type,
        onMainActor: Bool,
        sticky: StickyGeneration?,
        in context: inout DeliveryContext,
        scheduled: inout ScheduledDeliveries,
        learned: inout [LearnedNonconformance],
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            switch Routing.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers)
            {
            case .call(let listener):
                if let sticky, !entry.claims(sticky) { continue }
                call(listener)
                count += 1
            case .schedule(let actor):
                scheduled.append(entry, on: actor)
                count += 1
            case .skip:
                break
            case .skipAndRecord(let nonconformance):
                learned.append(nonconformance)
            }
        }
        return count
    }
}

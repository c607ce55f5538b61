extension Broadcaster {
    /// The one path behind every synchronous broadcast and post: under the
    /// lock, record a sticky broadcast and take `P`'s members; then, with no
    /// lock held, call what can be called here and schedule the rest on
    /// their actors.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol to broadcast to.
    ///   - sticky: Whether to keep the broadcast as the latest for `P`.
    ///   - event: For a sticky post, the posted value.
    ///   - announceChange: For a sticky post, tells the event type's
    ///     observers once the state is cleared.
    ///   - onMainActor: Whether every call must run on the main actor.
    ///   - isolation: Where the broadcast runs.
    ///   - call: Makes the typed call here; it need not escape, so a
    ///     payload passed with `with:` is not copied into a closure for it.
    ///   - makeEscaping: Makes an escaping form of `call`, asked for only
    ///     when a call must outlive the broadcast: recorded as sticky, or
    ///     scheduled on an actor.
    /// - Returns: The number of calls made or scheduled.
    func send<P>(
        to listenerType: P.Type,
        sticky: Bool,
        event: (any Sendable)? = nil,
        announcingChange announceChange: (@Sendable (Broadcaster) -> Void)? = nil,
        onMainActor: Bool,
        from isolation: (any Actor)?,
        calling call: (P) -> Void,
        makingEscaping makeEscaping: () -> @Sendable (P) -> Void
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        guard sticky else {
            let members = members(of: P.self, in: &context)
            return dispatch(
                to: members, as: P.self, onMainActor: onMainActor, sticky: nil, in: &context, calling: call,
                makingEscaping: makeEscaping)
        }
        let deliver = makeEscaping()
        let record = StickyBroadcast(
            for: P.self, onMainActor: onMainActor, event: event, announcingChange: announceChange, deliver)
        let (members, generation) = stickyMembers(of: P.self, in: &context, recording: record)
        return dispatch(
            to: members, as: P.self, onMainActor: onMainActor, sticky: generation, in: &context,
            calling: call
        ) { deliver }
    }

    /// The members of `P`'s index, taken under the lock.
    func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        let (members, considered) = storage.withLock { storage, releases in
            storage.members(of: P.self, in: &context, releasing: &releases)
        }
        checkIsolatedConformances(of: considered, as: P.self, in: &context)
        return members
    }

    /// ``members(of:in:)``, recording `sticky` as `P`'s sticky broadcast in
    /// the same critical section, so that every listener either is among
    /// the members or registers afterwards and is replayed `sticky`.
    func stickyMembers<P>(of _: P.Type, in context: inout DeliveryContext, recording sticky: StickyBroadcast)
        -> (members: [ListenerEntry], generation: StickyGeneration)
    {
        let (members, considered, generation) = storage.withLock { storage, releases in
            let generation = storage.setSticky(sticky, releasing: &releases)
            let (members, considered) = storage.members(of: P.self, in: &context, releasing: &releases)
            return (members, considered, generation)
        }
        checkIsolatedConformances(of: considered, as: P.self, in: &context)
        return (members, generation)
    }

    /// Debug builds: hands the entries an index just considered to the
    /// isolated-conformance check, with no lock held; release builds do
    /// nothing.
    func checkIsolatedConformances<P>(
        of considered: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext
    ) {
        #if DEBUG
            isolatedConformanceCheck.inspect(considered, as: P.self, in: &context, for: self)
        #endif
    }

    /// Delivers to `members`, a snapshot: calls what can be called here and
    /// schedules the rest on their actors.
    ///
    /// - Returns: The number of calls made or scheduled.
    func dispatch<P>(
        to members: [ListenerEntry],
        as _: P.Type,
        onMainActor: Bool,
        sticky: StickyGeneration?,
        in context: inout DeliveryContext,
        calling call: (P) -> Void,
        makingEscaping makeEscaping: () -> @Sendable (P) -> Void
    ) -> Int {
        var scheduled = ScheduledDeliveries()
        var learned: [LearnedNonconformance] = []
        let count = Delivery.deliver(
            to: members, as: P.self, onMainActor: onMainActor, sticky: sticky, in: &context,
            scheduled: &scheduled, learned: &learned, call)
        if !learned.isEmpty { record(learned, as: P.self) }
        if !scheduled.isEmpty {
            let deliver = makeEscaping()
            for batch in scheduled.batches {
                schedule(
                    batch.entries, on: batch.actor, as: P.self, onMainActor: onMainActor, sticky: sticky,
                    deliver)
            }
        }
        return count
    }

    /// Enqueues one job on `actor`'s mailbox that delivers to `entries` as
    /// `P` there, in order, routing each again there.
    func schedule<P>(
        _ entries: [ListenerEntry], on actor: any Actor, as _: P.Type, onMainActor: Bool = false,
        sticky: StickyGeneration?, _ deliver: @escaping @Sendable (P) -> Void
    ) {
        mailboxes.mailbox(for: actor).enqueue { actor in
            var context = DeliveryContext(isolation: actor)
            var scheduled = ScheduledDeliveries()
            var learned: [LearnedNonconformance] = []
            // On its actor, in a task, every cast is definitive: nothing is
            // scheduled again.
            _ = Delivery.deliver(
                to: entries, as: P.self, onMainActor: onMainActor, sticky: sticky, in: &context,
                scheduled: &scheduled, learned: &learned, deliver)
            if !learned.isEmpty { self.record(learned, as: P.self) }
        }
    }

    /// Records what deliveries proved: listener classes that are not `P`s on
    /// their actors.
    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        storage.withLock { storage, _ in
            for nonconformance in learned {
                storage.recordNonconformance(of: nonconformance.type, to: P.self, on: nonconformance.actor)
            }
        }
    }
}

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
            let route = Routing.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers
            ) { listener in
                if let sticky {
                    guard entry.claims(sticky) else { return }
                    StickyCall.making(sticky, to: entry) { call(listener) }
                } else {
                    call(listener)
                }
                count += 1
            }
            switch route {
            case .called, .skip:
                break
            case .schedule(let actor):
                scheduled.append(entry, on: actor)
                count += 1
            case .skipAndRecord(let nonconformance):
                learned.append(nonconformance)
            }
        }
        return count
    }
}

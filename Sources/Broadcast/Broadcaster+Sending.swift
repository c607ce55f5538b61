extension Broadcaster {
    /// The one path behind every synchronous broadcast and post: snapshot
    /// `P`'s index (recording a sticky broadcast in the same critical
    /// section), call what can be called here with no lock held, and
    /// schedule the rest on their actors.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol to broadcast to.
    ///   - sticky: Whether to keep the broadcast as the latest for `P`.
    ///   - onMainActor: Whether every call must run on the main actor.
    ///   - isolation: Where the broadcast runs.
    ///   - call: Makes the typed call here; it need not escape, so a
    ///     payload passed with `with:` is not copied into a closure for it.
    ///   - keep: Makes an escaping form of `call`, asked for only when a
    ///     call is kept: recorded as sticky, or scheduled on an actor.
    /// - Returns: The number of calls made or scheduled.
    func send<P>(
        to listenerType: P.Type,
        sticky: Bool,
        onMainActor: Bool,
        from isolation: (any Actor)?,
        calling call: (P) -> Void,
        keeping keep: () -> @Sendable (P) -> Void
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        guard sticky else {
            let members = snapshot(of: P.self, in: &context)
            return dispatch(
                to: members, as: P.self, onMainActor: onMainActor, in: &context, calling: call, keeping: keep)
        }
        let deliver = keep()
        let record = StickyBroadcast(for: P.self, onMainActor: onMainActor, deliver)
        let members = snapshot(of: P.self, in: &context, recording: record)
        return dispatch(to: members, as: P.self, onMainActor: onMainActor, in: &context, calling: call) { deliver }
    }

    /// The members of `P`'s index, taken under the lock.
    func snapshot<P>(of _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        let (members, considered) = storage.withLock { $0.members(of: P.self, in: &context) }
        checkIsolatedConformances(of: considered, as: P.self, in: &context)
        return members
    }

    /// ``snapshot(of:in:)``, recording `sticky` as `P`'s sticky broadcast in
    /// the same critical section.
    func snapshot<P>(of _: P.Type, in context: inout DeliveryContext, recording sticky: StickyBroadcast)
        -> [ListenerEntry]
    {
        let (members, considered) = storage.withLock { storage in
            storage.setSticky(sticky)
            return storage.members(of: P.self, in: &context)
        }
        checkIsolatedConformances(of: considered, as: P.self, in: &context)
        return members
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
        in context: inout DeliveryContext,
        calling call: (P) -> Void,
        keeping keep: () -> @Sendable (P) -> Void
    ) -> Int {
        var scheduled = ScheduledDeliveries()
        var learned: [LearnedNonconformance] = []
        let count = Delivery.deliver(
            to: members, as: P.self, override: onMainActor ? IsolationBox.mainActor : nil, in: &context,
            scheduled: &scheduled, learned: &learned, call)
        if !learned.isEmpty { record(learned, as: P.self) }
        if !scheduled.isEmpty {
            let deliver = keep()
            for batch in scheduled.batches { schedule(batch.entries, on: batch.actor, as: P.self, deliver) }
        }
        return count
    }

    /// Enqueues one job on `actor`'s mailbox that calls `entries` as `P`
    /// there, in order, re-checking each before its call.
    func schedule<P>(
        _ entries: [ListenerEntry], on actor: any Actor, as _: P.Type, _ deliver: @escaping @Sendable (P) -> Void
    ) {
        mailboxes.mailbox(for: actor).enqueue { actor in
            var learned: [LearnedNonconformance] = []
            _ = Delivery.deliverScheduled(entries, as: P.self, on: actor, learned: &learned, deliver)
            if !learned.isEmpty { self.record(learned, as: P.self) }
        }
    }

    /// Records what deliveries proved: listener classes that are not `P`s on
    /// their actors.
    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        storage.withLock { storage in
            for nonconformance in learned {
                storage.recordNonconformance(of: nonconformance.type, to: P.self, on: nonconformance.actor)
            }
        }
    }
}

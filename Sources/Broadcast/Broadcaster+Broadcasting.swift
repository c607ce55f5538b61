extension Broadcaster {
    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType`, in registration order.
    ///
    /// Listeners with no actor are called here, on the calling thread, before
    /// this returns. A listener registered on an actor is called here too if
    /// the broadcast runs on that actor; otherwise its call is scheduled on
    /// that actor, behind the calls scheduled before it. Use
    /// ``broadcastAndWait(to:isolation:_:)`` or ``waitForScheduledDeliveries()``
    /// to wait for scheduled calls.
    ///
    /// ```swift
    /// nonisolated extension Broadcaster {
    ///     func userLoggedOut() {
    ///         broadcast(to: LoginListener.self) { $0.userLoggedOut() }
    ///     }
    /// }
    /// ```
    ///
    /// To pass a value, prefer ``broadcast(to:with:sticky:isolation:_:)``:
    /// a closure that captures a value larger than one reference allocates
    /// its context on every broadcast; one that takes the value as an
    /// argument captures nothing.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - sticky: Whether to keep this broadcast as the latest for
    ///     `listenerType`, replacing the previous sticky one, so that listeners
    ///     that register later with `receivingStickyBroadcasts: true` receive
    ///     it at once. Use it for state (signed in, connectivity), not for
    ///     one-off events.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call. `@Sendable` because it may run on
    ///     another actor.
    /// - Returns: The number of calls made or scheduled. It is exact
    ///   wherever the runtime can check a conformance isolated to a
    ///   listener's actor: on the main thread (top-level code, run-loop
    ///   handlers) or in a task on that actor. Elsewhere (another thread, or a
    ///   main-queue block serviced off the main thread after `dispatchMain()`)
    ///   a listener registered on an actor whose conformance to
    ///   `listenerType` has not been checked there yet is counted as a
    ///   scheduled call; if its actor finds no conformance, the call does
    ///   nothing and later broadcasts count exactly.
    ///   ``broadcastAndWait(to:isolation:_:)`` always returns the exact count.
    @inlinable
    @inline(__always)
    @discardableResult
    public func broadcast<P>(
        to listenerType: P.Type,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        send(to: P.self, sticky: sticky, from: isolation, actorOverride: nil, deliver)
    }

    /// Calls `deliver` on the main actor with every live listener that
    /// conforms to `listenerType`, whatever actor each registered from.
    ///
    /// Use it for protocols whose requirements are main-actor isolated
    /// (`@MainActor protocol KeyboardListener`), and for events that UI code
    /// must only see on the main thread. Made on the main actor, the calls run
    /// before this returns; made anywhere else, they are scheduled on the main
    /// actor.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - sticky: Whether to keep this broadcast as the latest for
    ///     `listenerType` (see ``broadcast(to:sticky:isolation:_:)``).
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call, on the main actor.
    /// - Returns: The number of calls made or scheduled.
    @inlinable
    @discardableResult
    public func broadcastOnMainActor<P>(
        to listenerType: P.Type,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) -> Int {
        send(
            to: P.self, sticky: sticky, from: isolation, actorOverride: MainActor.shared, Self.mainActorCall(deliver))
    }

    /// Broadcasts like ``broadcast(to:sticky:isolation:_:)`` and returns once
    /// every call of this broadcast has run, including those scheduled on
    /// actors.
    ///
    /// If the waiting task is cancelled, returns at once with the calls made
    /// so far; the calls still scheduled are made later, as for
    /// ``broadcast(to:sticky:isolation:_:)``.
    ///
    /// - Returns: The number of calls made (so far, if cancelled).
    @discardableResult
    public func broadcastAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCount()
        let madeOrScheduled = send(
            to: P.self, sticky: false, from: isolation, actorOverride: nil,
            { listener in
                calls.add()
                deliver(listener)
            })
        return await waitForCalls(calls, madeOrScheduled: madeOrScheduled)
    }

    /// Broadcasts like ``broadcastOnMainActor(to:sticky:isolation:_:)`` and
    /// returns once every call has run.
    ///
    /// If the waiting task is cancelled, returns at once with the calls made
    /// so far; the calls still scheduled are made later.
    ///
    /// - Returns: The number of calls made (so far, if cancelled).
    @discardableResult
    public func broadcastOnMainActorAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCount()
        let call = Self.mainActorCall { (listener: P) in
            calls.add()
            deliver(listener)
        }
        let madeOrScheduled = send(to: P.self, sticky: false, from: isolation, actorOverride: MainActor.shared, call)
        return await waitForCalls(calls, madeOrScheduled: madeOrScheduled)
    }

    /// Returns once every call this broadcaster scheduled on an actor before
    /// this call has run.
    ///
    /// A barrier for code (and tests) that broadcasts through synchronous
    /// typed methods: `broadcaster.postCreated(post)`, then
    /// `await broadcaster.waitForScheduledDeliveries()`.
    ///
    /// If the waiting task is cancelled, returns at once, without waiting
    /// for the rest (the scheduled calls still run later): a wait for an
    /// actor that never gets to run them ends with its task, so a test's
    /// time limit can end it.
    public func waitForScheduledDeliveries() async {
        for mailbox in mailboxes.all() {
            guard !Task.isCancelled else { return }
            let barrier = CancellableBarrier()
            mailbox.enqueue { _ in barrier.open() }
            await barrier.wait()
        }
    }

    /// The awaitable forms' wait: `calls` counts the calls made of a
    /// broadcast that made or scheduled `madeOrScheduled`; waits for the
    /// scheduled ones unless every one is already made.
    ///
    /// - Returns: The calls made (so far, if the task is cancelled).
    func waitForCalls(_ calls: CallCount, madeOrScheduled: Int) async -> Int {
        if calls.value < madeOrScheduled { await waitForScheduledDeliveries() }
        return calls.value
    }

    // MARK: - The delivery path

    /// The one path behind every broadcast method: snapshot the index (and
    /// record a sticky broadcast) under the lock, then deliver without it.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol to broadcast to.
    ///   - sticky: Whether to keep the broadcast as the latest for `P`.
    ///   - isolation: Where the broadcast runs.
    ///   - actorOverride: The actor every listener must be called on, if any.
    ///   - deliver: Makes the typed call.
    /// - Returns: The number of calls made or scheduled.
    @inlinable
    func send<P>(
        to listenerType: P.Type,
        sticky: Bool,
        from isolation: (any Actor)?,
        actorOverride: (any Actor)?,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        // Not through the two-form path below: `deliver` is already the kept
        // form, and wrapping it as one (`keeping: { deliver }`) kept the
        // app's typed method, which holds this inlined loop, from being
        // inlined where it is called (callgrind, Docs/PerformanceNotes.md).
        var (members, place) =
            sticky
            ? snapshot(
                of: P.self, recordingSticky: deliver, event: nil, actorOverride: actorOverride, from: isolation)
            : snapshot(of: P.self, from: isolation)
        return dispatch(to: members, as: P.self, in: &place, actorOverride: actorOverride, deliver)
    }

    /// ``send(to:sticky:from:actorOverride:_:)`` with the typed
    /// call in two forms: `call`, made where the broadcast runs, and `kept`,
    /// which makes an escaping copy of it only when one is kept (a sticky
    /// broadcast, a scheduled call).
    ///
    /// Why two: a call made here needs no escaping closure, and forming one
    /// that captures a payload allocates its context (a `struct` payload:
    /// 32 bytes per broadcast, measured with the benchmarks' allocation
    /// counter). ``broadcast(to:with:sticky:isolation:_:)`` passes a closure
    /// that captures nothing and pairs it with the payload here, so a
    /// broadcast that calls every listener where it runs allocates nothing.
    ///
    /// Inlinable with `dispatch` and ``Delivery``, so that the delivery loop is
    /// compiled for `P` where the broadcast is written; the snapshot (and any
    /// cast) stays in the library.
    @inlinable
    func send<P>(
        to listenerType: P.Type,
        sticky: Bool,
        from isolation: (any Actor)?,
        actorOverride: (any Actor)?,
        calling call: (P) -> Void,
        keeping kept: () -> @Sendable (P) -> Void
    ) -> Int {
        // The kept copy goes into the library only where it is kept: passed
        // on every broadcast, its captures were retained and released twice
        // per broadcast.
        guard sticky else {
            var (members, place) = snapshot(of: P.self, from: isolation)
            return dispatch(
                to: members, as: P.self, in: &place, actorOverride: actorOverride, calling: call, keeping: kept)
        }
        let deliver = kept()
        var (members, place) = snapshot(
            of: P.self, recordingSticky: deliver, event: nil, actorOverride: actorOverride, from: isolation)
        return dispatch(
            to: members, as: P.self, in: &place, actorOverride: actorOverride, calling: call, keeping: { deliver })
    }

    /// The members of `P`'s index, taken under the lock.
    ///
    /// Builds the index (with one cast per listener) on first use, so it is
    /// not inlinable: it casts (see ``Delivery``).
    @usableFromInline
    func snapshot<P>(of _: P.Type, from isolation: (any Actor)?) -> (members: [IndexMember], place: DeliveryPlace) {
        var place = DeliveryPlace(isolation: isolation)
        let key = ObjectIdentifier(P.self)
        let members = storage.withLock { storage in
            if let members = storage.latestMembers(for: key) { return members }
            return storage.members(of: P.self, in: &place.context)
        }
        return (members, place)
    }

    /// ``snapshot(of:from:)``, recording `deliver` (and, for a sticky event,
    /// its value) as `P`'s sticky broadcast in the same critical section.
    @usableFromInline
    func snapshot<P>(
        of _: P.Type,
        recordingSticky deliver: @escaping @Sendable (P) -> Void,
        event: (any Sendable)?,
        actorOverride: (any Actor)?,
        from isolation: (any Actor)?
    ) -> (members: [IndexMember], place: DeliveryPlace) {
        var place = DeliveryPlace(isolation: isolation)
        let sticky = StickyBroadcast(for: P.self, actorOverride: actorOverride, event: event, deliver)
        let members = storage.withLock { storage in
            storage.setStickyBroadcast(sticky)
            return storage.members(of: P.self, in: &place.context)
        }
        return (members, place)
    }

    /// Delivers to `members` (a snapshot): calls what can be called here and
    /// schedules the rest on their actors.
    @inlinable
    func dispatch<P>(
        to members: [IndexMember],
        as _: P.Type,
        in place: inout DeliveryPlace,
        actorOverride: (any Actor)?,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        // Directly, for the reason given in `send`.
        var scheduled = ScheduledDeliveries()
        let count = Delivery.deliver(
            to: members, as: P.self, place: &place, actorOverride: actorOverride,
            scheduled: &scheduled, nonconforming: { recordNonconformance(of: $0, to: P.self) }, deliver)
        if !scheduled.isEmpty { schedule(scheduled, as: P.self, deliver) }
        return count
    }

    /// The same, with the call in the two forms of
    /// ``send(to:sticky:from:actorOverride:calling:keeping:)``.
    @inlinable
    func dispatch<P>(
        to members: [IndexMember],
        as _: P.Type,
        in place: inout DeliveryPlace,
        actorOverride: (any Actor)?,
        calling call: (P) -> Void,
        keeping kept: () -> @Sendable (P) -> Void
    ) -> Int {
        var scheduled = ScheduledDeliveries()
        let count = Delivery.deliver(
            to: members, as: P.self, place: &place, actorOverride: actorOverride,
            scheduled: &scheduled, nonconforming: { recordNonconformance(of: $0, to: P.self) }, call)
        if !scheduled.isEmpty { schedule(scheduled, as: P.self, kept()) }
        return count
    }

    /// The same, for code that holds a ``DeliveryContext``.
    func dispatch<P>(
        to members: [IndexMember],
        as _: P.Type,
        in context: inout DeliveryContext,
        actorOverride: (any Actor)?,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        var place = DeliveryPlace(context: context)
        defer { context = place.context }
        return dispatch(to: members, as: P.self, in: &place, actorOverride: actorOverride, deliver)
    }

    /// Enqueues each actor's batch of `scheduled` on that actor.
    ///
    /// - Parameters:
    ///   - scheduled: The calls to make on actors.
    ///   - listenerType: The protocol to call them as.
    ///   - deliver: Makes the typed call.
    @usableFromInline
    func schedule<P>(
        _ scheduled: ScheduledDeliveries,
        as listenerType: P.Type,
        _ deliver: @escaping @Sendable (P) -> Void
    ) {
        for batch in scheduled.batches {
            schedule(batch.entries, on: batch.actor, as: P.self, deliver, teachingProjections: batch.teachesProjections)
        }
    }

    /// Enqueues one job on `actor`'s mailbox that calls `entries` as `P`
    /// there, in order, re-checking each before its call.
    ///
    /// - Parameters:
    ///   - entries: The listeners to call, in registration order.
    ///   - actor: Where to call them.
    ///   - listenerType: The protocol to call them as.
    ///   - deliver: Makes the typed call.
    ///   - teachingProjections: Whether the calls' casts (on the main actor)
    ///     should leave their classes' projections in `P`'s index (see
    ///     ``LearnedProjections``).
    func schedule<P>(
        _ entries: [ListenerEntry],
        on actor: any Actor,
        as listenerType: P.Type,
        _ deliver: @escaping @Sendable (P) -> Void,
        teachingProjections: Bool = false
    ) {
        mailboxes.mailbox(for: actor).enqueue { _ in
            var learned = teachingProjections ? LearnedProjections() : nil
            Delivery.deliverScheduled(
                entries, as: P.self,
                nonconforming: { type in
                    self.recordNonconformance(of: type, to: P.self)
                }, learning: &learned, deliver)
            if let learned, !learned.isEmpty { self.storage.withLock { $0.adopt(learned, to: P.self) } }
        }
    }

    /// Records what a delivery proved: `type` does not conform to `P`.
    @usableFromInline
    func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type) {
        storage.withLock { $0.recordNonconformance(of: type, to: P.self) }
    }

    /// Wraps a main-actor call so it can travel as a plain `@Sendable` one.
    ///
    /// Only ever invoked on the main actor: the delivery path runs it either
    /// where ``DeliveryContext`` found the main actor, or in the main actor's
    /// mailbox.
    @usableFromInline
    static func mainActorCall<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in
            // Safe: this closure only runs on the main actor (see above), where
            // the listener was just obtained, so it never crosses isolation;
            // `assumeIsolated` checks that claim at run time.
            nonisolated(unsafe) let listener = listener
            MainActor.assumeIsolated { deliver(listener) }
        }
    }
}

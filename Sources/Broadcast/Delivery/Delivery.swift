extension Broadcaster {
    /// The one path behind every synchronous protocol broadcast: one trip
    /// through the lock, then the calls with no lock held (a payload passed
    /// `with:` is copied into a closure only for a call scheduled on an actor).
    ///
    /// A post has its own entry point,
    /// ``sendPost(to:from:calling:handling:adapting:makingEscaping:)``.
    func send<P>(
        to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?, calling call: (P) -> Void,
        makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        var run = DeliveryRun()
        switch storage.members(of: P.self as Any.Type, singling: true) {
        case .one(let entry):
            Delivery.deliver(to: entry, onMainActor: onMainActor, in: &context, into: &run, call)
        case let read:
            let members = members(from: read, as: P.self, in: &context)
            Delivery.deliver(to: members, onMainActor: onMainActor, sticky: nil, in: &context, into: &run, call)
        }
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: nil, makeEscaping())
        }
        return run.count
    }

    /// A sticky protocol broadcast: recorded as it reads the members
    /// (``recordSticky(_:as:in:)``), then delivered, each call claiming its
    /// generation.
    func sendSticky<P>(
        _ sticky: StickyBroadcast, to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?,
        calling call: (P) -> Void, escaping deliver: EscapingCalls<P>
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        let (members, generation) = recordSticky(sticky, as: P.self, in: &context)
        var run = DeliveryRun()
        Delivery.deliver(
            to: members, onMainActor: onMainActor, sticky: generation, in: &context, into: &run, call)
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: generation, deliver)
        }
        return run.count
    }

    /// A sticky broadcast is recorded in the critical section that reads the
    /// members: every listener is among them or registers later and is replayed it.
    func recordSticky<P>(_ sticky: StickyBroadcast, as _: P.Type, in context: inout DeliveryContext)
        -> (members: [ListenerEntry], generation: StickyGeneration)
    {
        let (read, generation) = storage.withLock { storage, releases in
            (storage.members(of: P.self as Any.Type), storage.setSticky(sticky, releasing: &releases))
        }
        return (members(from: read, as: P.self, in: &context), generation)
    }

    /// Replays the sticky state of `generation` to `entry`, which registered.
    ///
    /// Routed as a live call of the same broadcast or post is, and what it
    /// leaves carried out as a live delivery's leftovers are (``finish``: a
    /// call the main actor settles takes room in ``UnsettledCallLimit``, and
    /// the main actor settles the listener). A call made here is appended to
    /// `callsHere`, made once every replay is planned, and claims the
    /// generation then.
    func replay<P>(
        _ generation: StickyGeneration, to entry: ListenerEntry, onMainActor: Bool, _ calls: EscapingCalls<P>,
        in context: inout DeliveryContext, callsHere: inout [() -> Void]
    ) {
        var run = DeliveryRun()
        func callHere(_ call: @escaping () -> Void) {
            callsHere.append { StickyCall.claiming(generation, for: entry, call) }
        }
        if let handle = calls.handle {
            Delivery.deliverPost(
                to: entry, in: &context, into: &run, { listener in callHere { calls.call(listener) } },
                handling: { handler, _ in callHere { handle(handler) } }, adapting: { _, _ in nil })
        } else {
            Delivery.deliver(
                to: entry, onMainActor: onMainActor, in: &context, into: &run,
                { listener in callHere { calls.call(listener) } })
        }
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: generation, calls)
        }
    }

    @inline(__always)
    func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        members(from: storage.members(of: P.self as Any.Type), as: P.self, in: &context)
    }

    @inline(__always)
    func members<P>(from read: consuming Members, as _: P.Type, in context: inout DeliveryContext)
        -> [ListenerEntry]
    {
        switch consume read {
        case .ready(let members):
            // Debug builds: an answer left open may be settled where this runs.
            checkIsolatedConformances(of: [], as: P.self, in: &context)
            return members
        case .one(let entry):
            return [entry]
        case .intake(let intake):
            return takeIn(intake, as: P.self, in: &context)
        }
    }

    /// Decides an index's new entries with no lock held (a cast may run a
    /// custom executor's isolation check), commits the decision, and returns
    /// the members this broadcast uses whether or not the commit applied.
    private func takeIn<P>(_ intake: IndexIntake, as _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        var admitted: [ListenerEntry] = []
        var learned: [LearnedNonconformance] = []
        // Only a rebuild meets an object twice: a second entry changes the layout.
        var seen: Set<ObjectIdentifier>? = intake.isRebuild ? [] : nil
        for case let entry? in intake.entries where entry.listens(to: intake.protocolID) {
            guard let object = entry.liveObject,
                HandlerRouting.admits(
                    object, of: entry, as: P.self, knowing: intake.known, in: &context, learned: &learned),
                seen?.insert(entry.id).inserted != false
            else { continue }
            admitted.append(entry)
        }
        storage.withLock { storage, releases in
            storage.commit(intake, admitting: admitted, learned: learned, releasing: &releases)
        }
        checkIsolatedConformances(of: intake.entries, as: P.self, in: &context)
        return intake.members + admitted
    }

    /// Debug builds: the isolated-conformance check, with no lock held.
    func checkIsolatedConformances<P>(
        of considered: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext
    ) {
        #if DEBUG
            isolatedConformanceCheck.inspect(considered, as: P.self, in: &context, for: self)
        #endif
    }

    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        storage.withLock { storage, _ in
            for nonconformance in learned {
                storage.recordNonconformance(of: nonconformance.type, to: P.self, on: nonconformance.actor)
            }
        }
    }
}

/// The calls of a synchronous protocol broadcast, in registration order.
///
/// With no lock held, each entry is checked just before its call, so a
/// removal or release during a broadcast takes effect for the rest of it.
/// Every listener is routed by ``Routing``; a post's calls are
/// ``deliverPost(to:sticky:in:into:_:handling:adapting:)``.
enum Delivery {
    @inline(__always)
    static func deliver<P>(
        to members: [ListenerEntry], onMainActor: Bool, sticky: StickyGeneration?,
        in context: inout DeliveryContext, into run: inout DeliveryRun, _ call: (P) -> Void
    ) {
        if let sticky {
            return deliver(to: members, onMainActor: onMainActor, claiming: sticky, in: &context, into: &run, call)
        }
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            let route = Routing.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers,
                calling: call)
            run.note(route, for: entry)
        }
    }

    /// A delivery to a single member.
    @inline(__always)
    static func deliver<P>(
        to entry: ListenerEntry, onMainActor: Bool, in context: inout DeliveryContext,
        into run: inout DeliveryRun, _ call: (P) -> Void
    ) {
        guard let object = entry.liveObject else { return }
        var answers = ActorAnswers()
        let route = Routing.route(
            consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers,
            calling: call)
        run.note(route, for: entry)
    }

    /// Each call of a sticky broadcast claims its generation first
    /// (``StickyCall/claiming(_:for:_:)``); one overtaken is not counted.
    private static func deliver<P>(
        to members: [ListenerEntry], onMainActor: Bool, claiming sticky: StickyGeneration,
        in context: inout DeliveryContext, into run: inout DeliveryRun, _ call: (P) -> Void
    ) {
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            var claimed = false
            let route = Routing.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers
            ) { listener in
                claimed = StickyCall.claiming(sticky, for: entry) { call(listener) }
            }
            if case .called = route, !claimed { continue }
            run.note(route, for: entry)
        }
    }
}

/// A delivery's calls in the escaping form a call scheduled on an actor, or
/// a sticky state, keeps: to listeners as `P`, and for a post to its closure
/// handlers (nil for a protocol broadcast).
struct EscapingCalls<P>: Sendable {
    let call: @Sendable (P) -> Void
    let handle: (@Sendable (EventHandler) -> Void)?

    init(_ call: @escaping @Sendable (P) -> Void, handling handle: (@Sendable (EventHandler) -> Void)? = nil) {
        self.call = call
        self.handle = handle
    }

    /// A scheduled call's delivery: a post's through the post's loop, a
    /// protocol broadcast's through the broadcast's.
    func deliver(
        to entries: [ListenerEntry], onMainActor: Bool, sticky: StickyGeneration?,
        in context: inout DeliveryContext, into run: inout DeliveryRun
    ) {
        guard let handle else {
            return Delivery.deliver(
                to: entries, onMainActor: onMainActor, sticky: sticky, in: &context, into: &run, call)
        }
        Delivery.deliverPost(
            to: entries, sticky: sticky, in: &context, into: &run, call, handling: { handler, _ in handle(handler) },
            adapting: { _, _ in nil })
    }
}

/// A `@MainActor` call carried as a plain `@Sendable` one; the delivery path
/// makes it on the main actor only, which `assumeIsolated` checks each time.
enum MainActorCall {
    static func wrap<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in call(deliver, with: listener) }
    }

    static func call<P>(_ deliver: @MainActor (P) -> Void, with listener: P) {
        // `nonisolated(unsafe)`: the listener was obtained on the main actor for
        // this call only; `assumeIsolated` checks the caller is there.
        nonisolated(unsafe) let listener = listener
        MainActor.assumeIsolated { deliver(listener) }
    }
}

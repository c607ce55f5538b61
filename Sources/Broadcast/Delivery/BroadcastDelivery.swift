extension Broadcaster {
    /// The one path behind every synchronous protocol broadcast: one trip
    /// through the lock, then the calls with no lock held (a payload passed
    /// `with:` is copied into a closure only for a call scheduled on an actor),
    /// then the tap, if one is set (``TapWatch``).
    ///
    /// A post has its own entry point,
    /// ``sendPost(to:watchedAs:from:calling:handling:adapting:makingEscaping:)``.
    func send<P>(
        to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?, calling call: (P) -> Void,
        makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        let watch = watch(.broadcast, of: P.self, sticky: false)
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
        watch?.observe(run)
        return run.count
    }

    /// A sticky protocol broadcast: recorded as it reads the members
    /// (``recordSticky(_:as:in:)``), then delivered, each call claiming its
    /// generation.
    func sendSticky<P>(
        _ sticky: StickyBroadcast, to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?,
        calling call: (P) -> Void, escaping deliver: EscapingCalls<P>
    ) -> Int {
        let watch = watch(.broadcast, of: P.self, sticky: true)
        var context = DeliveryContext(isolation: isolation)
        let (members, generation) = recordSticky(sticky, as: P.self, in: &context)
        var run = DeliveryRun()
        Delivery.deliver(
            to: members, onMainActor: onMainActor, sticky: generation, in: &context, into: &run, call)
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: generation, deliver)
        }
        watch?.observe(run)
        return run.count
    }

}

extension Delivery {
    /// The calls of a synchronous protocol broadcast, in registration order,
    /// each listener routed by ``Routing``.
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

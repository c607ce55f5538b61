extension Broadcaster {
    /// Why a broadcast to `listenerType` made here would, or would not, call
    /// `listener`.
    ///
    /// The answer is the decision a ``broadcast(to:sticky:isolation:_:)``
    /// made from the same place would take now, by the same routing; asking
    /// changes nothing a later broadcast does.
    ///
    /// ```swift
    /// let screen = FeedScreen(broadcaster: broadcaster)  // @MainActor, registers itself
    /// let explanation = broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self)
    /// // On the main actor: .calledHere. From a background thread:
    /// // .scheduledIfConforming(on: MainActor.shared), because FeedScreen's
    /// // conformance is isolated to the main actor and can only be checked there.
    /// ```
    ///
    /// - Parameters:
    ///   - listener: The object expected to be called; hold it while you ask.
    ///   - listenerType: The protocol of the broadcast.
    ///   - isolation: Where the broadcast would run; leave the default.
    /// - Returns: The decision, with a readable ``DeliveryExplanation/description``.
    public func deliveryExplanation<P>(
        for listener: AnyObject,
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation
    ) -> DeliveryExplanation {
        if ListenerValidation.isBoxedValue(listener) { return .refusedAsBoxedValue }
        let protocolID = ObjectIdentifier(P.self)
        let id = ObjectIdentifier(listener)
        let facts = storage.explanationFacts(for: id, as: P.self)
        let (entries, memberships, known, stopped) = (facts.entries, facts.memberships, facts.known, facts.stopped)
        var context = DeliveryContext(isolation: isolation)
        var listensToP = false
        for (entry, membership) in zip(entries, memberships) where entry.liveObject === listener {
            guard entry.listens(to: protocolID) else { continue }
            listensToP = true
            // The entry a broadcast uses: the first the index lists, or would
            // list now; decided on a copy, so asking changes nothing.
            var learned: [LearnedNonconformance] = []
            let isMember =
                membership
                ?? Routing.admits(listener, of: entry, as: P.self, knowing: known, in: &context, learned: &learned)
            if isMember { return Self.decision(for: entry, listener, as: P.self, in: &context) }
        }
        if listensToP { return .doesNotConform }
        if stopped.contains(where: { $0.object === listener }) { return .registrationStopped }
        let others = entries.filter { $0.liveObject === listener }.compactMap { $0.onlyProtocolType }.map {
            String(describing: $0)
        }
        return others.isEmpty ? .notRegistered : .registeredOnlyForOtherProtocols(others)
    }

    /// What a broadcast to `P` made here does with `entry`: the decision of
    /// ``Routing/route(_:of:as:onMainActor:in:answers:calling:)``, the function the
    /// delivery loop calls, so the two cannot differ.
    private static func decision<P>(
        for entry: ListenerEntry, _ object: AnyObject, as _: P.Type, in context: inout DeliveryContext
    ) -> DeliveryExplanation {
        var answers = ActorAnswers()
        let route = Routing.route(object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers) {
            _ in  // asked, not called
        }
        switch route {
        case .called:
            guard let actor = entry.isolation else { return DeliveryExplanation.calledHere.applying(.noActor) }
            let rule: DeliveryRule = context.isRunning(on: actor) ? .onItsActor : .sendableCalledWhereBroadcastRuns
            return DeliveryExplanation.calledHere.applying(rule)
        case .schedule(let actor):
            let explanation: DeliveryExplanation =
                Conformance.isKnownToConformAnywhere(object, as: P.self, in: &context)
                ? .scheduled(on: actor) : .scheduledIfConforming(on: actor)
            return explanation.applying(scheduleRule(for: entry))
        case .settleOnMainActor:
            return DeliveryExplanation.scheduledIfConforming(on: MainActor.shared).applying(.mainActorSettles)
        case .skip, .skipAndRecord:
            return .doesNotConform
        }
    }

    /// Why a call to `entry` made elsewhere is scheduled on its actor.
    private static func scheduleRule(for entry: ListenerEntry) -> DeliveryRule {
        if entry.isolationBox == nil { return .conformanceFoundIsolatedToTheMainActor }
        guard entry.isSendable else { return .boundToItsActor }
        return entry.mayBeCalledOffItsActor ? .conformanceIsolatedToItsActor : .runtimeCannotCheckIsolation
    }
}

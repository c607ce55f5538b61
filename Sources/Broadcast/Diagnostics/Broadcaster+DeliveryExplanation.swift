extension Broadcaster {
    /// Why a broadcast to `listenerType` made here would, or would not, call
    /// `listener`.
    ///
    /// Named as a noun phrase because it has no side effects (Swift API Design
    /// Guidelines); `for:` and `to:` read as in `broadcast(to:)`.
    ///
    /// The answer is the decision a ``broadcast(to:sticky:isolation:_:)``
    /// made from the same place would take right now, computed from the same
    /// pieces (the protocol's index of listeners, the recorded isolation of
    /// each registration, where the code runs): ``DeliveryExplanation/calledHere``
    /// and ``DeliveryExplanation/scheduled(on:)`` mean the broadcast calls the
    /// listener, here or on that actor. Asking changes nothing a later
    /// broadcast does: if no broadcast to `listenerType` has built its index
    /// yet, the index is built for the answer and thrown away.
    ///
    /// ```swift
    /// let screen = FeedScreen(broadcaster: broadcaster)  // @MainActor, registers itself
    /// let explanation = broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self)
    /// // On the main actor: .calledHere. From a background thread:
    /// // .scheduledIfConforming(on: MainActor.shared), because FeedScreen's
    /// // conformance is isolated to the main actor and can only be checked there.
    /// ```
    ///
    /// A listener that deallocated cannot be asked about: hold it while you
    /// ask. Registered with another ``Broadcaster`` instance, it reads as
    /// ``DeliveryExplanation/notRegistered``: a broadcaster knows only its own
    /// listeners.
    ///
    /// - Parameters:
    ///   - listener: The object expected to be called.
    ///   - listenerType: The protocol of the broadcast.
    ///   - isolation: Where the broadcast would run; leave the default to ask
    ///     about a broadcast made by the calling code.
    /// - Returns: The decision, with a readable
    ///   ``DeliveryExplanation/description``.
    public func deliveryExplanation<P>(
        for listener: AnyObject,
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation
    ) -> DeliveryExplanation {
        if ListenerValidation.isBoxedValue(listener) { return .refusedAsBoxedValue }
        let protocolID = ObjectIdentifier(P.self)
        var context = DeliveryContext(isolation: isolation)
        let id = ObjectIdentifier(listener)
        let (candidates, members, stopped) = storage.withLock { storage in
            let candidates = storage.liveEntries(withID: id)
            let members =
                candidates.contains { $0.listens(to: protocolID) }
                ? storage.membersWithoutBuilding(of: P.self, in: &context) : []
            return (candidates, members, storage.stoppedRegistrations.listeners(withID: id, stoppedFor: protocolID))
        }
        let entries = candidates.filter { $0.object === listener }
        let wasStopped = stopped.contains { $0.object === listener }
        guard entries.contains(where: { $0.listens(to: protocolID) }) else {
            if wasStopped { return .registrationStopped }
            let others = entries.compactMap(\.onlyProtocol).map(ProtocolName.of)
            return others.isEmpty ? .notRegistered : .registeredOnlyForOtherProtocols(others)
        }
        // The member a broadcast uses: the first whose entry is still live
        // (the loop skips retired ones, and an index may keep a removed entry
        // of this object until its next filter, ahead of a newer one).
        guard let member = members.first(where: { $0.entry.liveObject === listener }) else {
            return .doesNotConform
        }
        return Self.decision(for: member, listener, as: P.self, in: &context)
    }

    /// The branch `Delivery.deliver` takes for `member` (no actor override),
    /// without calling anything: each test below is the one the delivery loop
    /// makes, in the same order, with the same context.
    private static func decision<P>(
        for member: IndexMember, _ object: AnyObject, as _: P.Type, in context: inout DeliveryContext
    ) -> DeliveryExplanation {
        guard let actor = member.entry.isolation else {
            return member.withListener(object, as: P.self, in: &context) { _ in } ? .calledHere : .doesNotConform
        }
        if !context.isRunning(on: actor) {
            return conformsOnItsActor(object, as: P.self, in: &context)
                ? .scheduled(on: actor) : .scheduledIfConforming(on: actor)
        }
        if member.withListener(object, as: P.self, in: &context, { _ in }) { return .calledHere }
        if context.castsAreDefinitive(on: actor) { return .doesNotConform }
        return .scheduledIfConforming(on: actor)
    }

    /// Whether the cast a scheduled call makes on the listener's actor is
    /// known to succeed, from here.
    ///
    /// A cast that succeeds in code isolated to no actor, off the main queue,
    /// proves a conformance isolated to no actor, which holds everywhere.
    /// Anywhere else a success may come from a conformance isolated to the
    /// actor the code runs on, which would fail on the listener's actor.
    private static func conformsOnItsActor<P>(
        _ object: AnyObject, as _: P.Type, in context: inout DeliveryContext
    ) -> Bool {
        guard context.isolation == nil, !context.isOnMainQueue else { return false }
        return IndexMember.castAndCall(object, as: P.self) { _ in }
    }
}

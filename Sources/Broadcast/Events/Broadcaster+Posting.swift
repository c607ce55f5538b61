extension Broadcaster {
    /// Delivers `event` to every listener of `Event` values: objects conforming
    /// to ``EventListener``, closure handlers and event streams, in
    /// registration order.
    ///
    /// `post` and ``post(awaitingEach:order:isolation:)`` reach disjoint sets:
    /// this one calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)-5j070``
    /// closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams;
    /// the awaited one calls ``addAwaitedHandler(for:isolation:handler:)-1npjj``
    /// closures only.
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - sticky: Whether to keep `event` as the latest `Event`, so that a
    ///     handler or listener registering later can ask to receive it at once.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func post<Event: Sendable>(
        _ event: Event,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        let deliver: @Sendable (any EventListener<Event>) -> Void = { $0.receive(event) }
        guard sticky else {
            return send(
                to: (any EventListener<Event>).self, sticky: false, onMainActor: false, from: isolation,
                calling: deliver
            ) { deliver }
        }
        // A sticky post also keeps the value, for `stickyEvent(of:)`.
        var context = DeliveryContext(isolation: isolation)
        let record = StickyBroadcast(for: (any EventListener<Event>).self, onMainActor: false, event: event, deliver)
        let members = snapshot(of: (any EventListener<Event>).self, in: &context, recording: record)
        return dispatch(
            to: members, as: (any EventListener<Event>).self, onMainActor: false, in: &context, calling: deliver
        ) { deliver }
    }

    /// Keeps `event` as the sticky `Event` without delivering it now, so that
    /// handlers, listeners and streams registering later can ask for it.
    public func setStickyEvent<Event: Sendable>(_ event: Event) {
        let sticky = StickyBroadcast(for: (any EventListener<Event>).self, onMainActor: false, event: event) {
            $0.receive(event)
        }
        storage.withLock { $0.setSticky(sticky) }
    }

    /// Forgets the sticky `Event`, if any.
    public func clearStickyEvent<Event: Sendable>(for eventType: Event.Type) {
        clearStickyBroadcast(for: (any EventListener<Event>).self)
    }
}

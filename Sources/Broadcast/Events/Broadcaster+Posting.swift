extension Broadcaster {
    /// Delivers `event` to every listener of `Event` values: objects conforming
    /// to ``EventListener``, closure handlers and event streams, in
    /// registration order.
    ///
    /// `post` and ``post(awaitingEach:order:isolation:)`` reach disjoint sets:
    /// this one calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)``
    /// closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams;
    /// the awaited one calls ``addAwaitedHandler(for:isolation:handler:)``
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
        // A sticky post also keeps the value, for `stickyEvent(for:)`.
        return send(
            to: (any EventListener<Event>).self, sticky: sticky, event: event, onMainActor: false, from: isolation,
            calling: deliver
        ) { deliver }
    }

    /// Keeps `event` as the sticky `Event` without delivering it now, so that
    /// handlers, listeners and streams registering later can ask for it.
    public func setStickyEvent<Event: Sendable>(_ event: Event) {
        keep(
            StickyBroadcast(for: (any EventListener<Event>).self, onMainActor: false, event: event) {
                $0.receive(event)
            })
    }

    /// Forgets the sticky `Event`, if any.
    public func clearStickyEvent<Event: Sendable>(for eventType: Event.Type) {
        clearStickyBroadcast(for: (any EventListener<Event>).self)
    }
}

extension Broadcaster {
    /// Calls the `async` `handler` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, which awaits it, until the
    /// returned token is released or cancelled.
    ///
    /// The handler is called where a listener registered from the same code
    /// would be: on the caller's actor (the main actor, from UI code), or,
    /// registered from non-isolated code, where the post runs. It receives
    /// only awaited posts: ``post(_:sticky:isolation:)`` calls synchronous
    /// handlers, listeners and streams only.
    ///
    /// ```swift
    /// token = broadcaster.addAwaitedHandler(for: UserSignedOut.self) { _ in
    ///     await store.removeAll()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with each event; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) async -> Void
    ) -> BroadcastToken {
        let listener = AwaitedClosureListener(handler)
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil)
        register(entry, receivingSticky: false, from: isolation)
        return BroadcastToken(retaining: RetainedListener(listener)) { [weak self] in
            self?.unregister(entry)
        }
    }

    /// Delivers `event` to every awaited handler of `Event` values and
    /// returns once each has returned.
    ///
    /// The label says, as in ``broadcast(awaitingEach:order:isolation:_:)``,
    /// that each call is awaited. `post(awaitingEach:)` and
    /// ``post(_:sticky:isolation:)`` reach disjoint sets: this one calls
    /// ``addAwaitedHandler(for:isolation:handler:)`` closures only; `post`
    /// calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)``
    /// closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams.
    ///
    /// Order, isolation, snapshot and cancellation are those of
    /// ``broadcast(awaitingEach:order:isolation:_:)``: handlers run one at a
    /// time in registration order by default, each on the actor it
    /// registered from; a handler added during the post is not called by it,
    /// one whose token goes before its turn is not called, and once the
    /// posting task is cancelled no further handler begins.
    ///
    /// ```swift
    /// await broadcaster.post(awaitingEach: UserSignedOut())
    /// ```
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - order: Whether to await the handlers one at a time or run them
    ///     concurrently.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of handlers called.
    @discardableResult
    public func post<Event: Sendable>(
        awaitingEach event: Event,
        order: AwaitedDeliveryOrder = .sequential,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        await broadcast(awaitingEach: (any AwaitedEventReceiver<Event>).self, order: order) { await $0.receive(event) }
    }
}

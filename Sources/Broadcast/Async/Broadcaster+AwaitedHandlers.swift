extension Broadcaster {
    /// Calls the `@Sendable` `async` `handler` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, which awaits it, until the
    /// returned token is released or cancelled.
    ///
    /// It receives only awaited posts: ``post(_:sticky:isolation:)`` calls
    /// synchronous handlers, listeners and streams only. The handler is
    /// bound to no actor, so it is `@Sendable`; one that must run on an actor
    /// names it: ``addAwaitedHandler(for:calledOn:handler:)``.
    ///
    /// ```swift
    /// token = broadcaster.addAwaitedHandler(for: UserSignedOut.self) { _ in
    ///     await store.removeAll()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - handler: Called with each event; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        handler: @escaping @Sendable (Event) async -> Void
    ) -> BroadcastToken {
        addClosure(AwaitedClosureListener(handler), calledOn: nil, receivingSticky: false)
    }

    /// Calls the `async` `handler` on `actor` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, which awaits it, until the
    /// returned token is released or cancelled.
    ///
    /// The handler need not be `@Sendable`: it only ever runs on `actor`. The
    /// registering code runs on `actor`: from elsewhere, `await` the call.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - actor: The actor every call runs on.
    ///   - handler: Called with each event, on `actor`; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        calledOn actor: isolated any Actor,
        handler: @escaping (Event) async -> Void
    ) -> BroadcastToken {
        addClosure(AwaitedClosureListener(handler), calledOn: actor, receivingSticky: false)
    }

    /// Calls the `async` `handler` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, which awaits it, until the
    /// returned token is released or cancelled, in the Swift 5 language mode.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with each event; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, obsoleted: 6)
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) async -> Void
    ) -> BroadcastToken {
        addClosure(AwaitedClosureListener(handler), calledOn: isolation, receivingSticky: false)
    }

    /// Delivers `event` to every awaited handler of `Event` values and
    /// returns once each has returned.
    ///
    /// The label says, as in ``broadcast(awaitingEach:order:isolation:_:)``,
    /// that each call is awaited. `post(awaitingEach:)` and
    /// ``post(_:sticky:isolation:)`` reach disjoint sets: this one calls
    /// `addAwaitedHandler` closures only; `post` calls `EventListener`
    /// objects, `addHandler` closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams.
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
        // Awaited handlers are called typed (``AwaitedEventHandler``), with
        // no cast to a protocol; no other object is ever an `AwaitedPost`.
        await AwaitedDelivery.deliver(
            to: AwaitedPost<Event>.self, watchedAs: Event.self, order: order, from: isolation, broadcaster: self,
            handling: { await $0.receive(awaited: event) }, { _ in })
    }
}

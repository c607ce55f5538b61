extension Broadcaster {
    /// Calls the `async` `handler` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, which awaits it, until the
    /// returned token is released or cancelled, on the caller's actor.
    ///
    /// The handler is called where a listener registered from the same code
    /// would be: on the main actor, from UI code; on the actor, from an
    /// actor's method. It receives only awaited posts:
    /// ``post(_:sticky:isolation:)`` calls synchronous handlers, listeners
    /// and streams only.
    ///
    /// ```swift
    /// token = broadcaster.addAwaitedHandler(for: UserSignedOut.self) { _ in
    ///     await store.removeAll()
    /// }
    /// ```
    ///
    /// From code isolated to no actor, this form does not compile in the
    /// Swift 6 language mode ("'nil' is not compatible with expected argument
    /// type 'any Actor'"): register from an actor's code, or pass
    /// `isolation: nil` and a `@Sendable` handler.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - isolation: The actor the handler runs on; defaults to the
    ///     caller's, which must be an actor.
    ///   - handler: Called with each event; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    // Registered from code isolated to no actor? Register from an actor's code,
    // or pass `isolation: nil` and a @Sendable handler.
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Event) async -> Void
    ) -> BroadcastToken {
        addAwaitedClosure(AwaitedClosureListener(handler), isSendable: false, isolation: isolation)
    }

    /// Calls the `@Sendable` `async` `handler` with every `Event` posted by
    /// ``post(awaitingEach:order:isolation:)``, wherever the post runs,
    /// until the returned token is released or cancelled.
    ///
    /// The form for code isolated to no actor:
    ///
    /// ```swift
    /// token = broadcaster.addAwaitedHandler(for: UserSignedOut.self, isolation: nil) { _ in
    ///     await store.removeAll()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - isolation: `nil` to run `handler` where the post runs, or the
    ///     actor to record for it.
    ///   - handler: Called with each event; the post awaits it.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addAwaitedHandler<Event: Sendable>(
        for eventType: Event.Type,
        isolation: isolated (any Actor)?,
        handler: @escaping @Sendable (Event) async -> Void
    ) -> BroadcastToken {
        addAwaitedClosure(AwaitedClosureListener(handler), isSendable: true, isolation: isolation)
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
        addAwaitedClosure(AwaitedClosureListener(handler), isSendable: false, isolation: isolation)
    }

    /// What every `addAwaitedHandler` does.
    func addAwaitedClosure<Event>(
        _ listener: AwaitedClosureListener<Event>,
        isSendable: Bool,
        isolation: isolated (any Actor)?
    ) -> BroadcastToken {
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil, isSendable: isSendable)
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
    /// ``addAwaitedHandler(for:isolation:handler:)-1npjj`` closures only; `post`
    /// calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)-5j070``
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

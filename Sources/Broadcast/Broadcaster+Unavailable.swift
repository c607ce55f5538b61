// The 0.1.0 spellings, which 1.0 deprecated and 2.0 removes. Each stays
// declared, unavailable, so that the compiler names its replacement (as a
// fix-it where only labels changed) instead of reporting an unknown member.

extension Broadcaster {
    /// The 0.1.0 spelling of `addListener(_:receivingSticky:isolation:fileID:line:)`.
    @available(
        *, unavailable, renamed: "addListener(_:receivingSticky:isolation:fileID:line:)",
        message: "a listener that is not Sendable names its actor: addListener(_:calledOn:receivingSticky:)"
    )
    @discardableResult
    public func addListener(
        _ listener: AnyObject,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        fatalError("unavailable")
    }

    /// The 0.1.0 name of ``registrationCount``.
    @available(*, unavailable, renamed: "registrationCount")
    public var listenerCount: Int {
        fatalError("unavailable")
    }

    /// The 0.1.0 broadcast that waited for its scheduled calls.
    @available(*, unavailable, message: "broadcast(to:), then await waitForScheduledDeliveries()")
    @discardableResult
    public func broadcastAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        fatalError("unavailable")
    }

    /// The 0.1.0 main-actor broadcast that waited for its scheduled calls.
    @available(*, unavailable, message: "broadcastOnMainActor(to:), then await waitForScheduledDeliveries()")
    @discardableResult
    public func broadcastOnMainActorAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) async -> Int {
        fatalError("unavailable")
    }

    /// The 0.1.0 post that waited for its scheduled calls.
    @available(*, unavailable, message: "post(_:), then await waitForScheduledDeliveries()")
    @discardableResult
    public func postAndWait<Event: Sendable>(_ event: Event, isolation: isolated (any Actor)? = #isolation) async -> Int
    {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of `addHandler(for:receivingSticky:handler:)`.
    @available(
        *, unavailable, renamed: "addHandler(for:receivingSticky:handler:)",
        message: "a handler that is not @Sendable names its actor: addHandler(for:calledOn:receivingSticky:handler:)"
    )
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingStickyEvent: Bool,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of `addHandler(for:owner:receivingSticky:handler:)`.
    @available(
        *, unavailable, renamed: "addHandler(for:owner:receivingSticky:handler:)",
        message:
            "a handler that is not @Sendable names its actor: addHandler(for:owner:calledOn:receivingSticky:handler:)"
    )
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingStickyEvent: Bool,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of ``events(of:bufferingPolicy:receivingSticky:)``.
    @available(*, unavailable, renamed: "events(of:bufferingPolicy:receivingSticky:)")
    public func events<Event: Sendable>(
        of eventType: Event.Type,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded,
        receivingStickyEvent: Bool
    ) -> BroadcastEvents<Event> {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of ``setStickyBroadcast(for:_:)``.
    @available(*, unavailable, renamed: "setStickyBroadcast(for:_:)")
    public func setStickyBroadcast<P>(to listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of ``setStickyBroadcastOnMainActor(for:_:)``.
    @available(*, unavailable, renamed: "setStickyBroadcastOnMainActor(for:_:)")
    public func setStickyBroadcastOnMainActor<P>(
        to listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        fatalError("unavailable")
    }

    /// The 0.1.0 spelling of ``clearStickyEvent(for:)``.
    @available(*, unavailable, renamed: "clearStickyEvent(for:)")
    public func clearStickyEvent<Event: Sendable>(of eventType: Event.Type) {
        fatalError("unavailable")
    }
}

extension Lifespan {
    /// The 0.1.0 spelling of ``custom(_:)``.
    @available(*, unavailable, renamed: "custom(_:)")
    public init(_ name: String) {
        fatalError("unavailable")
    }
}

extension ListenerRegistration {
    /// The 0.1.0 spelling of `init(_:for:lifespan:on:receivingSticky:)`.
    @available(
        *, unavailable, renamed: "init(_:for:lifespan:on:receivingSticky:)",
        message: "a listener that is not Sendable names its actor: init(_:for:calledOn:lifespan:on:receivingSticky:)"
    )
    public convenience init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingStickyBroadcasts: Bool
    ) {
        fatalError("unavailable")
    }
}

extension ListenerRegistrations {
    /// The 0.1.0 spelling of `add(_:for:lifespan:receivingSticky:isolation:)`.
    @available(
        *, unavailable, renamed: "add(_:for:lifespan:receivingSticky:isolation:)",
        message: "a listener that is not Sendable names its actor: add(_:for:calledOn:lifespan:receivingSticky:)"
    )
    @discardableResult
    public func add<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        fatalError("unavailable")
    }
}

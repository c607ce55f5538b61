// The 0.1.0 spellings of `Broadcaster`'s members, kept for one release.
// Each forwards to the 1.0 public API only; a label that had a default is
// required here, so that a call without it always means the 1.0 member.

extension Broadcaster {
    /// Registers `listener`; the 0.1.0 spelling of
    /// ``addListener(_:receivingSticky:isolation:fileID:line:)-4p25o``.
    ///
    /// - Parameters:
    ///   - listener: The object to call.
    ///   - receivingStickyBroadcasts: Whether to replay the sticky broadcasts
    ///     it conforms to.
    ///   - isolation: The actor the listener is called on.
    ///   - fileID: Where the call is; leave the default.
    ///   - line: Where the call is; leave the default.
    /// - Returns: `true` if `listener` was registered.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "addListener(_:receivingSticky:isolation:fileID:line:)")
    @discardableResult
    public func addListener<Listener: AnyObject & Sendable>(
        _ listener: consuming Listener,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        addListener(
            consume listener, receivingSticky: receivingStickyBroadcasts, isolation: isolation, fileID: fileID,
            line: line)
    }

    /// Registers `listener`; the 0.1.0 spelling of
    /// ``addListener(_:receivingSticky:isolation:fileID:line:)-4p25o``.
    ///
    /// - Parameters:
    ///   - listener: The object to call.
    ///   - receivingStickyBroadcasts: Whether to replay the sticky broadcasts
    ///     it conforms to.
    ///   - isolation: The actor the listener is called on.
    ///   - fileID: Where the call is; leave the default.
    ///   - line: Where the call is; leave the default.
    /// - Returns: `true` if `listener` was registered.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "addListener(_:receivingSticky:isolation:fileID:line:)")
    @discardableResult
    public func addListener<Listener: AnyObject>(
        _ listener: consuming Listener,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor) = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        addListener(
            consume listener, receivingSticky: receivingStickyBroadcasts, isolation: isolation, fileID: fileID,
            line: line)
    }

    /// Registers `listener`; the 0.1.0 spelling of
    /// ``addListener(_:receivingSticky:isolation:fileID:line:)-4p25o``.
    ///
    /// - Parameters:
    ///   - listener: The object to call.
    ///   - receivingStickyBroadcasts: Whether to replay the sticky broadcasts
    ///     it conforms to.
    ///   - isolation: The actor the listener is called on.
    ///   - fileID: Where the call is; leave the default.
    ///   - line: Where the call is; leave the default.
    /// - Returns: `true` if `listener` was registered.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "addListener(_:receivingSticky:isolation:fileID:line:)")
    @discardableResult
    public func addListener(
        _ listener: consuming AnyObject,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: false, receivingSticky: receivingStickyBroadcasts, isolation: isolation,
            fileID: fileID, line: line)
    }

    /// The number of live registrations; the 0.1.0 name of
    /// ``registrationCount``.
    @available(*, deprecated, renamed: "registrationCount")
    public var listenerCount: Int {
        registrationCount
    }

    /// Broadcasts like ``broadcast(to:sticky:isolation:_:)`` and returns once
    /// every call has run, with the number of calls made.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call.
    /// - Returns: The number of calls made; if the waiting task is cancelled,
    ///   the number made so far.
    @available(*, deprecated, message: "broadcast (or post), then await waitForScheduledDeliveries()")
    @discardableResult
    public func broadcastAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCounter()
        broadcast(to: P.self, isolation: isolation) { listener in
            calls.increment()
            deliver(listener)
        }
        await waitForScheduledDeliveries()
        return calls.count
    }

    /// Broadcasts like ``broadcastOnMainActor(to:sticky:isolation:_:)`` and
    /// returns once every call has run, with the number of calls made.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call, on the main actor.
    /// - Returns: The number of calls made; if the waiting task is cancelled,
    ///   the number made so far.
    @available(*, deprecated, message: "broadcast (or post), then await waitForScheduledDeliveries()")
    @discardableResult
    public func broadcastOnMainActorAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCounter()
        broadcastOnMainActor(to: P.self, isolation: isolation) { listener in
            calls.increment()
            deliver(listener)
        }
        await waitForScheduledDeliveries()
        return calls.count
    }

    /// Posts like ``post(_:sticky:isolation:)`` and returns once every call
    /// has run, with the number of calls made.
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of calls made; if the waiting task is cancelled,
    ///   the number made so far.
    @available(*, deprecated, message: "broadcast (or post), then await waitForScheduledDeliveries()")
    @discardableResult
    public func postAndWait<Event: Sendable>(
        _ event: Event,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        // The broadcast `post` makes: every listener of `Event` values
        // (objects, closure handlers and streams) is an `EventListener`.
        await broadcastAndWait(to: (any EventListener<Event>).self, isolation: isolation) { $0.receive(event) }
    }

    /// Registers a closure handler; the 0.1.0 spelling of
    /// ``addHandler(for:receivingSticky:isolation:handler:)-5j070``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingStickyEvent: Whether to call `handler` at once with the
    ///     sticky `Event`.
    ///   - isolation: Where the handler runs.
    ///   - handler: Called with each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "addHandler(for:receivingSticky:isolation:handler:)")
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingStickyEvent: Bool,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        addHandler(for: Event.self, receivingSticky: receivingStickyEvent, isolation: isolation, handler: handler)
    }

    /// Registers a closure handler; the 0.1.0 spelling of
    /// ``addHandler(for:receivingSticky:isolation:handler:)-5j070``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingStickyEvent: Whether to call `handler` at once with the
    ///     sticky `Event`.
    ///   - isolation: Where the handler runs.
    ///   - handler: Called with each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "addHandler(for:receivingSticky:isolation:handler:)")
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingStickyEvent: Bool,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        addClosure(
            ClosureListener(handler), isSendable: false, receivingSticky: receivingStickyEvent, isolation: isolation)
    }

    /// Registers a closure handler with an owner; the 0.1.0 spelling of
    /// ``addHandler(for:owner:receivingSticky:isolation:handler:)-5934h``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingStickyEvent: Whether to call `handler` at once with the
    ///     sticky `Event`.
    ///   - isolation: Where the handler runs.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "addHandler(for:owner:receivingSticky:isolation:handler:)")
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingStickyEvent: Bool,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        addHandler(
            for: Event.self, owner: owner, receivingSticky: receivingStickyEvent, isolation: isolation,
            handler: handler)
    }

    /// Registers a closure handler with an owner; the 0.1.0 spelling of
    /// ``addHandler(for:owner:receivingSticky:isolation:handler:)-5934h``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingStickyEvent: Whether to call `handler` at once with the
    ///     sticky `Event`.
    ///   - isolation: Where the handler runs.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "addHandler(for:owner:receivingSticky:isolation:handler:)")
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingStickyEvent: Bool,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(listener, isSendable: false, receivingSticky: receivingStickyEvent, isolation: isolation)
    }

    /// The `Event` values posted from now on; the 0.1.0 spelling of
    /// ``events(of:bufferingPolicy:receivingSticky:)``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - bufferingPolicy: What to keep while the consumer is busy.
    ///   - receivingStickyEvent: Whether the sequence starts with the sticky
    ///     `Event`.
    /// - Returns: A sequence for one consumer.
    @available(*, deprecated, renamed: "events(of:bufferingPolicy:receivingSticky:)")
    public func events<Event: Sendable>(
        of eventType: Event.Type,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded,
        receivingStickyEvent: Bool
    ) -> BroadcastEvents<Event> {
        events(of: Event.self, bufferingPolicy: bufferingPolicy, receivingSticky: receivingStickyEvent)
    }

    /// Keeps a sticky broadcast without delivering it; the 0.1.0 spelling of
    /// ``setStickyBroadcast(for:_:)``.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol the broadcast is kept for.
    ///   - deliver: Makes the typed call when it is replayed.
    @available(*, deprecated, renamed: "setStickyBroadcast(for:_:)")
    public func setStickyBroadcast<P>(to listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        setStickyBroadcast(for: P.self, deliver)
    }

    /// Keeps a sticky broadcast, replayed on the main actor, without
    /// delivering it; the 0.1.0 spelling of
    /// ``setStickyBroadcastOnMainActor(for:_:)``.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol the broadcast is kept for.
    ///   - deliver: Makes the typed call, on the main actor, when it is
    ///     replayed.
    @available(*, deprecated, renamed: "setStickyBroadcastOnMainActor(for:_:)")
    public func setStickyBroadcastOnMainActor<P>(
        to listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        setStickyBroadcastOnMainActor(for: P.self, deliver)
    }

    /// Forgets the sticky `Event`; the 0.1.0 spelling of
    /// ``clearStickyEvent(for:)``.
    ///
    /// - Parameter eventType: The event values whose sticky one to forget.
    @available(*, deprecated, renamed: "clearStickyEvent(for:)")
    public func clearStickyEvent<Event: Sendable>(of eventType: Event.Type) {
        clearStickyEvent(for: Event.self)
    }
}

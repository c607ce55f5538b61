// The 0.1.0 spelling of `ListenerRegistration`'s initializer, kept for one
// release; its replay label is required here, so that a call without it
// always means the 1.0 initializer.

extension ListenerRegistration {
    /// Declares a registration; the 0.1.0 spelling of
    /// ``init(_:for:lifespan:on:receivingSticky:)-405wk``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - broadcaster: Where to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "init(_:for:lifespan:on:receivingSticky:)")
    public convenience init<Listener: AnyObject & Sendable, P>(
        _ listener: Listener,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingStickyBroadcasts: Bool
    ) {
        self.init(
            listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingStickyBroadcasts)
    }

    /// Declares a registration; the 0.1.0 spelling of
    /// ``init(_:for:lifespan:on:receivingSticky:)-405wk``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - broadcaster: Where to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    ///   - isolation: The actor the listener is called on; leave the default.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "init(_:for:lifespan:on:receivingSticky:isolation:)")
    public convenience init<Listener: AnyObject, P>(
        _ listener: Listener,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor) = #isolation
    ) {
        self.init(
            listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingStickyBroadcasts,
            isolation: isolation)
    }

    /// Declares a registration; the 0.1.0 spelling of
    /// ``init(_:for:lifespan:on:receivingSticky:)-405wk``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - broadcaster: Where to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "init(_:for:lifespan:on:receivingSticky:)")
    public convenience init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingStickyBroadcasts: Bool
    ) {
        self.init(
            legacy: listener, for: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingStickyBroadcasts)
    }
}

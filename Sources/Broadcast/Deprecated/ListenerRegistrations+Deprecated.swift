// The 0.1.0 spelling of `ListenerRegistrations.add`, kept for one release;
// its replay label is required here, so that a call without it always
// means the 1.0 method.

extension ListenerRegistrations {
    /// Declares a registration; the 0.1.0 spelling of
    /// ``add(_:for:lifespan:receivingSticky:isolation:)-17a69``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    ///   - isolation: Where a lifetime registration starts.
    /// - Returns: The registration.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "add(_:for:lifespan:receivingSticky:isolation:)")
    @discardableResult
    public func add<Listener: AnyObject & Sendable, P>(
        _ listener: Listener,
        for listenerType: P.Type,
        lifespan: Lifespan,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        add(listener, for: P.self, lifespan: lifespan, receivingSticky: receivingStickyBroadcasts, isolation: isolation)
    }

    /// Declares a registration; the 0.1.0 spelling of
    /// ``add(_:for:lifespan:receivingSticky:isolation:)-17a69``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    ///   - isolation: Where a lifetime registration starts.
    /// - Returns: The registration.
    @available(swift, introduced: 6)
    @available(*, deprecated, renamed: "add(_:for:lifespan:receivingSticky:isolation:)")
    @discardableResult
    public func add<Listener: AnyObject, P>(
        _ listener: Listener,
        for listenerType: P.Type,
        lifespan: Lifespan,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor) = #isolation
    ) -> ListenerRegistration {
        add(listener, for: P.self, lifespan: lifespan, receivingSticky: receivingStickyBroadcasts, isolation: isolation)
    }

    /// Declares a registration; the 0.1.0 spelling of
    /// ``add(_:for:lifespan:receivingSticky:isolation:)-17a69``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    ///   - isolation: Where a lifetime registration starts.
    /// - Returns: The registration.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, renamed: "add(_:for:lifespan:receivingSticky:isolation:)")
    @discardableResult
    public func add<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan,
        receivingStickyBroadcasts: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            legacy: listener, for: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingStickyBroadcasts)
        add(registration)
        return registration
    }
}

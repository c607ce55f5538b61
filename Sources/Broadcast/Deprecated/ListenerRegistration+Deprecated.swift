// The 0.1.0 spelling of `ListenerRegistration`'s initializer, kept for one
// release; its replay label is required here, so that a call without it
// always means the 1.0 initializer.

extension ListenerRegistration {
    /// Declares a registration; the 0.1.0 spelling of
    /// ``init(_:for:lifespan:on:receivingSticky:)``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - broadcaster: Where to listen.
    ///   - receivingStickyBroadcasts: Whether each start delivers the sticky
    ///     broadcast to `listenerType`.
    @available(*, deprecated, renamed: "init(_:for:lifespan:on:receivingSticky:)")
    public convenience init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingStickyBroadcasts: Bool
    ) {
        self.init(
            listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingStickyBroadcasts)
    }
}

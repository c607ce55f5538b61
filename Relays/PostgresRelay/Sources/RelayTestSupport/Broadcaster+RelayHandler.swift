import Broadcast

extension Broadcaster {
    /// Calls `handler` with every `Event` posted, synchronously, wherever the
    /// post runs, as the relay's own handler is called: the tests, the
    /// two-process peer and the benchmark register through this, so that a
    /// handler registered from an actor's code is not called on that actor.
    package func addRelayHandler<Event: Sendable>(
        for eventType: Event.Type,
        handler: @escaping @Sendable (Event) -> Void
    ) -> BroadcastToken {
        addHandler(for: eventType, handler: handler)
    }
}

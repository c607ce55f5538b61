extension Broadcaster {
    /// The `Event` values posted from now on, as an asynchronous sequence.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - bufferingPolicy: What to keep while the consumer is busy; every
    ///     event by default.
    ///   - receivingSticky: Whether the sequence starts with the sticky
    ///     `Event`, if one is kept.
    /// - Returns: A sequence for one consumer; it ends when the consuming task
    ///   is cancelled or this broadcaster is released.
    public func events<Event: Sendable>(
        of eventType: Event.Type,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded,
        receivingSticky: Bool = false
    ) -> BroadcastEvents<Event> {
        makeEvents(of: Event.self, bufferingPolicy: bufferingPolicy, receivingStickyEvent: receivingSticky).events
    }

    /// An event stream and a function that ends it, for owners (the system
    /// bridge) whose release must end the streams they hand out;
    /// `onTermination` is called once, however the stream ends.
    package func makeEvents<Event: Sendable>(
        of eventType: Event.Type,
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy,
        receivingStickyEvent: Bool,
        onTermination: (@Sendable () -> Void)? = nil
    ) -> (events: BroadcastEvents<Event>, finish: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: bufferingPolicy)
        let listener = ClosureListener<Event> { continuation.yield($0) }
        let entry = ListenerEntry(object: listener, isolation: nil, onlyProtocol: nil)
        let retained = RetainedListener(listener)
        storage.addStreamFinisher(for: entry.id) { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            // Unregisters, then releases the listener this closure kept alive.
            self?.unregister(entry)
            self?.storage.removeStreamFinisher(for: entry.id)
            withExtendedLifetime(retained) {}
            onTermination?()
        }
        register(entry, receivingSticky: receivingStickyEvent, from: nil)
        return (BroadcastEvents(stream: stream), { continuation.finish() })
    }
}

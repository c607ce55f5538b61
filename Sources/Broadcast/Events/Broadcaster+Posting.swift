extension Broadcaster {
    /// Delivers `event` to every listener of `Event` values: objects conforming
    /// to ``EventListener``, closure handlers and event streams, in
    /// registration order.
    ///
    /// `post` and ``post(awaitingEach:order:isolation:)`` reach disjoint sets:
    /// this one calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)-5j070``
    /// closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams;
    /// the awaited one calls ``addAwaitedHandler(for:isolation:handler:)-1npjj``
    /// closures only.
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - sticky: Whether to keep `event` as the latest `Event`, so that a
    ///     handler or listener registering later can ask to receive it at once.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func post<Event: Sendable>(
        _ event: Event,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        let deliver: @Sendable (any EventListener<Event>) -> Void = { $0.receive(event) }
        guard sticky else {
            return send(to: (any EventListener<Event>).self, onMainActor: false, from: isolation, calling: deliver) {
                deliver
            }
        }
        // A sticky post also keeps the value, for `stickyEvent(for:)`.
        return sendSticky(
            StickyBroadcast(for: (any EventListener<Event>).self, onMainActor: false, event: event, deliver),
            to: (any EventListener<Event>).self, onMainActor: false, from: isolation, calling: deliver,
            escaping: deliver)
    }

    /// Keeps `event` as the sticky `Event` without delivering it now, so that
    /// handlers, listeners and streams registering later can ask for it.
    public func setStickyEvent<Event: Sendable>(_ event: Event) {
        keep(
            StickyBroadcast(for: (any EventListener<Event>).self, onMainActor: false, event: event) {
                $0.receive(event)
            })
    }

    /// The sticky `Event`, if one is kept, read without registering anything.
    ///
    /// Like `CurrentValueSubject.value`: the value that a handler, listener
    /// or stream registering now with `receivingSticky: true` would receive
    /// first. `stickyEvent(for:) != nil` says whether one is kept.
    ///
    /// ```swift
    /// broadcaster.post(UserSignedIn(name: "Ada"), sticky: true)
    /// let current = broadcaster.stickyEvent(for: UserSignedIn.self)  // UserSignedIn(name: "Ada")
    /// ```
    ///
    /// - Parameter eventType: The event values to read.
    /// - Returns: The latest `Event` kept by ``post(_:sticky:isolation:)`` with
    ///   `sticky: true` or by ``setStickyEvent(_:)``; nil if none is kept
    ///   (never posted sticky, cleared, or replaced by a sticky protocol
    ///   broadcast to `any EventListener<Event>`, which carries no value).
    public func stickyEvent<Event: Sendable>(for eventType: Event.Type) -> Event? {
        let protocolID = ObjectIdentifier((any EventListener<Event>).self)
        let sticky = storage.withLock { storage, _ in storage.sticky.latest(for: protocolID) }
        return sticky?.event as? Event
    }

    /// Forgets the sticky `Event`, if any.
    public func clearStickyEvent<Event: Sendable>(for eventType: Event.Type) {
        clearStickyBroadcast(for: (any EventListener<Event>).self)
    }
}

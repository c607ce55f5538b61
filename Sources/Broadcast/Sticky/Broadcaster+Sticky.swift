extension Broadcaster {
    /// Keeps a sticky broadcast to `listenerType` without delivering it now,
    /// replacing the previous one: listeners that register afterwards asking
    /// for sticky broadcasts receive it.
    ///
    /// For state whose replay is not the event that set it, for example
    /// "the keyboard is shown" after a frame change, or a state known before
    /// any event.
    public func setStickyBroadcast<P>(to listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        let sticky = StickyBroadcast(for: P.self, onMainActor: false, deliver)
        storage.withLock { $0.setSticky(sticky) }
    }

    /// Keeps a sticky broadcast to `listenerType`, replayed on the main
    /// actor, without delivering it now; see ``setStickyBroadcast(to:_:)``
    /// and ``broadcastOnMainActor(to:sticky:isolation:_:)``.
    public func setStickyBroadcastOnMainActor<P>(
        to listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        let sticky = StickyBroadcast(for: P.self, onMainActor: true, MainActorCall.wrap(deliver))
        storage.withLock { $0.setSticky(sticky) }
    }

    /// Forgets the sticky broadcast to `listenerType`, if any: listeners that
    /// register afterwards receive nothing for it until the next sticky
    /// broadcast.
    public func clearStickyBroadcast<P>(for listenerType: P.Type) {
        storage.withLock { $0.clearSticky(for: ObjectIdentifier(P.self)) }
    }

    /// Whether a sticky broadcast to `listenerType` is kept.
    public func hasStickyBroadcast<P>(for listenerType: P.Type) -> Bool {
        storage.withLock { $0.sticky.latest(for: ObjectIdentifier(P.self)) != nil }
    }

    /// Forgets every sticky broadcast and every sticky event: listeners that
    /// register afterwards receive nothing until the next sticky broadcast.
    public func removeAllStickyBroadcasts() {
        storage.withLock { $0.clearAllSticky() }
    }

    /// The sticky `Event`, if one is kept, read without registering anything.
    ///
    /// - Parameter eventType: The event values to read.
    /// - Returns: The latest `Event` kept by a sticky post or by
    ///   ``setStickyEvent(_:)``; nil if none is kept.
    public func stickyEvent<Event: Sendable>(of eventType: Event.Type) -> Event? {
        let protocolID = ObjectIdentifier((any EventListener<Event>).self)
        let sticky = storage.withLock { $0.sticky.latest(for: protocolID) }
        return sticky?.event as? Event
    }
}

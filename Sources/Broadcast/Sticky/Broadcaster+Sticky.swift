extension Broadcaster {
    /// Keeps a sticky broadcast to `listenerType` without delivering it now,
    /// replacing the previous one: listeners that register afterwards with
    /// `receivingSticky: true` receive it.
    ///
    /// For state whose replay is not the event that set it ("the keyboard is
    /// shown" after a frame change).
    public func setStickyBroadcast<P>(for listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        keep(StickyBroadcast(for: P.self, onMainActor: false, deliver))
    }

    /// ``setStickyBroadcast(for:_:)`` for a replay made on the main actor.
    public func setStickyBroadcastOnMainActor<P>(
        for listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        keep(StickyBroadcast(for: P.self, onMainActor: true, MainActorCall.wrap(deliver)))
    }

    /// Forgets the sticky broadcast to `listenerType`, if any.
    public func clearStickyBroadcast<P>(for listenerType: P.Type) {
        clearSticky(for: ObjectIdentifier(P.self), ifStill: nil)
    }

    /// Forgets the sticky broadcast to `protocolID` (if it is still
    /// generation `expected`, when given), then tells a sticky event's
    /// observers; returns what was forgotten.
    @discardableResult
    func clearSticky(for protocolID: ObjectIdentifier, ifStill expected: UInt64?) -> StickyBroadcast? {
        let cleared = storage.clearSticky(for: protocolID, ifStill: expected)
        cleared?.announceChange?(self)
        return cleared
    }

    /// Whether a sticky broadcast to `listenerType` is kept.
    public func hasStickyBroadcast<P>(for listenerType: P.Type) -> Bool {
        storage.latestSticky(for: ObjectIdentifier(P.self)) != nil
    }

    /// Forgets every sticky broadcast and every sticky event: for a reset
    /// (signing out, or between tests that share ``shared``).
    public func clearAllStickyBroadcasts() {
        let cleared = storage.clearAllSticky()
        for sticky in cleared { sticky.announceChange?(self) }
    }

    func keep(_ sticky: StickyBroadcast) {
        storage.keepSticky(sticky)
    }
}

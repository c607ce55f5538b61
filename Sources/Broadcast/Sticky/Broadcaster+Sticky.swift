extension Broadcaster {
    /// Keeps a sticky broadcast to `listenerType` without delivering it now,
    /// replacing the previous one: listeners that register afterwards with
    /// `receivingSticky: true` receive it.
    ///
    /// For state whose replay is not the event that set it, for example
    /// "the keyboard is shown" after a frame change, or a state known before
    /// any event.
    public func setStickyBroadcast<P>(for listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        keep(StickyBroadcast(for: P.self, onMainActor: false, deliver))
    }

    /// Keeps a sticky broadcast to `listenerType`, replayed on the main
    /// actor, without delivering it now; see
    /// ``setStickyBroadcast(for:_:)`` and
    /// ``broadcastOnMainActor(to:sticky:isolation:_:)``.
    public func setStickyBroadcastOnMainActor<P>(
        for listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        keep(StickyBroadcast(for: P.self, onMainActor: true, MainActorCall.wrap(deliver)))
    }

    /// Forgets the sticky broadcast to `listenerType`, if any: listeners that
    /// register afterwards receive nothing for it until the next sticky
    /// broadcast.
    public func clearStickyBroadcast<P>(for listenerType: P.Type) {
        let cleared = storage.withLock { storage, releases in
            storage.clearSticky(for: ObjectIdentifier(P.self), releasing: &releases)
        }
        cleared?.announceChange?(self)
    }

    /// Whether a sticky broadcast to `listenerType` is kept.
    public func hasStickyBroadcast<P>(for listenerType: P.Type) -> Bool {
        storage.withLock { storage, _ in storage.sticky.latest(for: ObjectIdentifier(P.self)) != nil }
    }

    /// Forgets every sticky broadcast and every sticky event (a sticky post
    /// is the sticky broadcast of a value): listeners that register
    /// afterwards receive nothing until the next sticky broadcast or post.
    ///
    /// For a reset (signing out, or between tests that share
    /// ``shared``); ``clearStickyBroadcast(for:)`` and
    /// ``clearStickyEvent(for:)`` forget one.
    public func clearAllStickyBroadcasts() {
        let cleared = storage.withLock { storage, releases in storage.clearAllSticky(releasing: &releases) }
        for sticky in cleared { sticky.announceChange?(self) }
    }

    /// Keeps `sticky` as the latest for its protocol without delivering it.
    func keep(_ sticky: StickyBroadcast) {
        _ = storage.withLock { storage, releases in storage.setSticky(sticky, releasing: &releases) }
    }
}

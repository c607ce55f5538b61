/// The latest sticky broadcast to one protocol, kept so that a listener that
/// registers later can receive it.
///
/// "Latest" is per protocol type, exactly as passed to `broadcast(to:)`: a
/// sticky broadcast replaces the previous sticky broadcast to the same type
/// and nothing else; a non-sticky broadcast leaves it in place. It is replayed
/// to a late listener that conforms to that type and asks for it, under the
/// same delivery rules (order, actors) as a live broadcast.
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    /// Delivers the broadcast to one entry, from the given isolation.
    let replay: @Sendable (Broadcaster, ListenerEntry, (any Actor)?) -> Void

    init<P>(for _: P.Type, actorOverride: (any Actor)?, _ deliver: @escaping @Sendable (P) -> Void) {
        protocolID = ObjectIdentifier(P.self)
        replay = { broadcaster, entry, isolation in
            guard entry.listens(to: ObjectIdentifier(P.self)) else { return }
            var context = DeliveryContext(isolation: isolation)
            _ = broadcaster.dispatch(
                to: [IndexMember(entry: entry, projection: .none)], as: P.self, in: &context,
                actorOverride: actorOverride, deliver, completion: nil)
        }
    }
}

extension Broadcaster {
    /// Keeps a sticky broadcast to `listenerType` without delivering it now,
    /// replacing the previous one: listeners that register afterwards with
    /// `receivingStickyBroadcasts: true` receive it.
    ///
    /// For state whose replay is not the event that set it, for example
    /// "the keyboard is shown" after a frame change, or a state known before
    /// any event.
    public func setStickyBroadcast<P>(to listenerType: P.Type, _ deliver: @escaping @Sendable (P) -> Void) {
        let sticky = StickyBroadcast(for: P.self, actorOverride: nil, deliver)
        storage.withLock { $0.setStickyBroadcast(sticky) }
    }

    /// Keeps a sticky broadcast to `listenerType`, replayed on the main
    /// actor, without delivering it now; see
    /// ``setStickyBroadcast(to:_:)`` and
    /// ``broadcastOnMainActor(to:sticky:isolation:_:)``.
    public func setStickyBroadcastOnMainActor<P>(
        to listenerType: P.Type,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) {
        let sticky = StickyBroadcast(for: P.self, actorOverride: MainActor.shared, Self.mainActorCall(deliver))
        storage.withLock { $0.setStickyBroadcast(sticky) }
    }

    /// Forgets the sticky broadcast to `listenerType`, if any: listeners that
    /// register afterwards receive nothing for it until the next sticky
    /// broadcast.
    public func clearStickyBroadcast<P>(for listenerType: P.Type) {
        storage.withLock { $0.clearStickyBroadcast(for: ObjectIdentifier(P.self)) }
    }

    /// Whether a sticky broadcast to `listenerType` is kept.
    public func hasStickyBroadcast<P>(for listenerType: P.Type) -> Bool {
        storage.withLock { $0.hasStickyBroadcast(for: ObjectIdentifier(P.self)) }
    }
}

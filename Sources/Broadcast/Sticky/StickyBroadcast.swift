/// The latest sticky broadcast to one protocol, kept so that a listener that
/// registers later can receive it.
///
/// "Latest" is per protocol type, exactly as passed to `broadcast(to:)`: a
/// sticky broadcast replaces the previous sticky broadcast to the same type
/// and nothing else; a non-sticky broadcast leaves it in place. It is replayed
/// to a late listener that conforms to that type and asks for it, under the
/// same delivery rules (order, actors) as a live broadcast.
///
/// A replay that must run on the listener's actor is scheduled while the
/// broadcaster's lock is still held (see ``Broadcaster/register(_:receivingStickyBroadcasts:from:)``):
/// a live broadcast that reaches the new listener takes the lock after the
/// registration, so it schedules its call after the replay, and the listener
/// never sees the older state after the newer one.
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    /// The actor every call must run on, if the broadcast was made on one.
    let actorOverride: (any Actor)?
    /// The posted value, for a sticky event (``Broadcaster/stickyEvent(of:)``
    /// reads it without registering); nil for a protocol broadcast.
    let event: (any Sendable)?
    /// Enqueues the broadcast for one entry on the given actor.
    let schedule: @Sendable (Broadcaster, ListenerEntry, any Actor) -> Void
    /// Delivers the broadcast to one entry where the registration runs.
    let replay: @Sendable (Broadcaster, ListenerEntry, inout DeliveryContext) -> Void

    init<P>(
        for _: P.Type, actorOverride: (any Actor)?, event: (any Sendable)? = nil,
        _ deliver: @escaping @Sendable (P) -> Void
    ) {
        protocolID = ObjectIdentifier(P.self)
        self.actorOverride = actorOverride
        self.event = event
        schedule = { broadcaster, entry, actor in
            broadcaster.schedule([entry], on: actor, as: P.self, deliver)
        }
        replay = { broadcaster, entry, context in
            _ = broadcaster.dispatch(
                to: [IndexMember(entry: entry, projection: nil)], as: P.self, in: &context,
                actorOverride: actorOverride, deliver)
        }
    }

    /// The actor `entry` must be replayed on, when the registration does not
    /// run there; nil when it can be called where the registration runs.
    func actorToScheduleOn(for entry: ListenerEntry, in context: inout DeliveryContext) -> (any Actor)? {
        guard let actor = actorOverride ?? entry.isolation, !context.isRunning(on: actor) else { return nil }
        return actor
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

    /// Forgets every sticky broadcast and every sticky event: listeners that
    /// register afterwards receive nothing until the next sticky broadcast.
    ///
    /// For a reset (signing out, or between tests that share
    /// ``shared``); ``clearStickyBroadcast(for:)`` and
    /// ``clearStickyEvent(of:)`` forget one.
    public func removeAllStickyBroadcasts() {
        storage.withLock { $0.removeAllStickyBroadcasts() }
    }

    /// The sticky `Event`, if one is kept, read without registering anything.
    ///
    /// Like `CurrentValueSubject.value`: the value that a handler, listener
    /// or stream registering now with `receivingStickyEvent: true` would
    /// receive first.
    ///
    /// ```swift
    /// broadcaster.post(UserSignedIn(name: "Ada"), sticky: true)
    /// let current = broadcaster.stickyEvent(of: UserSignedIn.self)  // UserSignedIn(name: "Ada")
    /// ```
    ///
    /// - Parameter eventType: The event values to read.
    /// - Returns: The latest `Event` kept by ``post(_:sticky:isolation:)`` with
    ///   `sticky: true` or by ``setStickyEvent(_:)``; nil if none is kept
    ///   (never posted sticky, cleared, or replaced by a sticky protocol
    ///   broadcast to `any EventListener<Event>`, which carries no value).
    public func stickyEvent<Event: Sendable>(of eventType: Event.Type) -> Event? {
        let protocolID = ObjectIdentifier((any EventListener<Event>).self)
        let sticky = storage.withLock { storage in
            storage.stickyBroadcasts.last { $0.protocolID == protocolID }
        }
        return sticky?.event as? Event
    }
}

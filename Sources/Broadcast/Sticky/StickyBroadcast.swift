/// The latest sticky broadcast to one protocol, kept so that a listener that
/// registers later can receive it.
///
/// "Latest" is per protocol type, exactly as passed to `broadcast(to:)`: a
/// sticky broadcast replaces the previous sticky broadcast to the same type
/// and nothing else; a non-sticky broadcast leaves it in place. It is replayed
/// to a late listener that conforms to that type and asks for it, through the
/// same delivery path as a live broadcast (order, actors, re-checks).
///
/// A replay that must run on the listener's actor is scheduled while the
/// broadcaster's lock is still held (``Broadcaster/register(_:receivingSticky:from:)``):
/// a live broadcast that reaches the new listener takes the lock after the
/// registration, so it schedules its call after the replay, and the listener
/// never sees the older state after the newer one.
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    /// Whether every call runs on the main actor (`broadcastOnMainActor`).
    let onMainActor: Bool
    /// The posted value, for a sticky event (``Broadcaster/stickyEvent(for:)``
    /// reads it without registering); nil for a protocol broadcast.
    let event: (any Sendable)?
    /// Enqueues the broadcast for one entry on the given actor.
    let schedule: @Sendable (Broadcaster, ListenerEntry, any Actor) -> Void
    /// Delivers the broadcast to one entry where the registration runs.
    let replay: @Sendable (Broadcaster, ListenerEntry, inout DeliveryContext) -> Void

    // The closures take the broadcaster as an argument instead of capturing
    // it, so the stored value holds no reference back to its owner; only a
    // closure made where `P` is known can call the generic delivery path.
    init<P>(
        for _: P.Type, onMainActor: Bool, event: (any Sendable)? = nil, _ deliver: @escaping @Sendable (P) -> Void
    ) {
        protocolID = ObjectIdentifier(P.self)
        self.onMainActor = onMainActor
        self.event = event
        schedule = { broadcaster, entry, actor in
            broadcaster.schedule([entry], on: actor, as: P.self, deliver)
        }
        replay = { broadcaster, entry, context in
            _ = broadcaster.dispatch(
                to: [entry], as: P.self, onMainActor: onMainActor, in: &context, calling: deliver
            ) { deliver }
        }
    }

    /// The actor `entry` must be replayed on, when the registration does not
    /// run there; nil when it can be called where the registration runs.
    func actorToScheduleOn(for entry: ListenerEntry, in context: inout DeliveryContext) -> (any Actor)? {
        let actor = onMainActor ? MainActor.shared : entry.isolation
        guard let actor, !context.isRunning(on: actor) else { return nil }
        return actor
    }
}

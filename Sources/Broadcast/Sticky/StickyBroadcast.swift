/// The latest sticky broadcast to one protocol, kept so that a listener that
/// registers later can receive it.
///
/// "Latest" is per protocol type, exactly as passed to `broadcast(to:)`: a
/// sticky broadcast replaces the previous sticky broadcast to the same type
/// and nothing else; a non-sticky broadcast leaves it in place. It is replayed
/// to a late listener that conforms to that type and asks for it, routed as a
/// live broadcast is (``Routing``), unless a newer state already reached
/// that listener (``StickyProgress``).
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    /// The posted value, for a sticky event (``Broadcaster/stickyEvent(for:)``
    /// reads it without registering); nil for a protocol broadcast.
    let event: (any Sendable)?
    /// For a sticky event: tells the event type's observers that its sticky
    /// state changed (``StickyEventObserver``), once this one is cleared.
    let announceChange: (@Sendable (Broadcaster) -> Void)?
    /// Its place among the sticky broadcasts, given when it is recorded,
    /// under the lock.
    private(set) var generation: StickyGeneration
    /// Plans its replay (called with its ``generation``) to one entry where the registration runs: enqueues
    /// what must run on the listener's actor, and appends the calls to make
    /// here to `callsHere`, for the registration to make once every replay
    /// is planned.
    let planReplay:
        @Sendable (Broadcaster, ListenerEntry, StickyGeneration, inout DeliveryContext, inout [() -> Void]) -> Void

    // The closure takes the broadcaster as an argument instead of capturing
    // it, so the stored value holds no reference back to its owner; only a
    // closure made where `P` is known can route and call as `P`.
    init<P>(
        for _: P.Type, onMainActor: Bool, event: (any Sendable)? = nil,
        announcingChange announceChange: (@Sendable (Broadcaster) -> Void)? = nil,
        _ deliver: @escaping @Sendable (P) -> Void
    ) {
        protocolID = ObjectIdentifier(P.self)
        self.event = event
        self.announceChange = announceChange
        generation = StickyGeneration(protocolID: ObjectIdentifier(P.self), number: 0)
        planReplay = { broadcaster, entry, generation, context, callsHere in
            guard let object = entry.liveObject else { return }
            var answers = ActorAnswers()
            let route = Routing.route(
                object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers
            ) { listener in
                callsHere.append {
                    guard entry.claims(generation) else { return }
                    StickyCall.making(generation, to: entry) { deliver(listener) }
                }
            }
            switch route {
            case .called:
                break
            case .schedule(let actor):
                broadcaster.schedule(
                    [entry], on: actor, as: P.self, onMainActor: onMainActor, sticky: generation, deliver)
            case .skip:
                break
            case .skipAndRecord(let nonconformance):
                broadcaster.record([nonconformance], as: P.self)
            }
        }
    }

    /// Records its place among the sticky broadcasts.
    mutating func number(_ number: UInt64) {
        generation = StickyGeneration(protocolID: protocolID, number: number)
    }

    /// Plans its replay to `entry`; see ``planReplay``.
    func planReplay(
        to entry: ListenerEntry, by broadcaster: Broadcaster, in context: inout DeliveryContext,
        callsHere: inout [() -> Void]
    ) {
        planReplay(broadcaster, entry, generation, &context, &callsHere)
    }
}

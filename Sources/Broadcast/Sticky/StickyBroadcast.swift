import Synchronization

/// The latest sticky broadcast to one protocol, kept for listeners that
/// register later with `receivingSticky: true`.
///
/// "Latest" is per protocol type, exactly as passed to `broadcast(to:)`. A
/// replay is routed as a live call is (``Routing``), and made only if no newer
/// state of its protocol reached the listener first (``StickyProgress``).
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    /// The posted value of a sticky event, for `stickyEvent(for:)`.
    let event: (any Sendable)?
    /// Its place among the sticky broadcasts, given under the lock.
    private(set) var generation: StickyGeneration
    /// Routes its replay to one entry: what must run on the listener's actor
    /// is enqueued at once; the calls to make here are appended to
    /// `callsHere`, made once every replay is planned.
    let planReplay:
        @Sendable (Broadcaster, ListenerEntry, StickyGeneration, inout DeliveryContext, inout [() -> Void]) -> Void

    // The broadcaster is an argument, not a capture: the storage holds no
    // reference to its owner. Only a closure made where `P` is known can cast.
    init<P>(
        for _: P.Type, onMainActor: Bool, event: (any Sendable)? = nil, _ deliver: @escaping @Sendable (P) -> Void
    ) {
        protocolID = ObjectIdentifier(P.self)
        self.event = event
        generation = StickyGeneration(protocolID: ObjectIdentifier(P.self), number: 0)
        planReplay = { broadcaster, entry, generation, context, callsHere in
            guard let object = entry.liveObject else { return }
            var answers = ActorAnswers()
            let route = Routing.route(
                object, of: entry, as: P.self, onMainActor: onMainActor, in: &context, answers: &answers
            ) { listener in
                callsHere.append { if entry.claims(generation) { deliver(listener) } }
            }
            switch route {
            case .called, .skip:
                break
            case .schedule(let actor):
                broadcaster.schedule(
                    [entry], on: actor, as: P.self, onMainActor: onMainActor, sticky: generation, deliver)
            case .skipAndRecord(let nonconformance):
                broadcaster.record([nonconformance], as: P.self)
            }
        }
    }

    mutating func number(_ number: UInt64) {
        generation = StickyGeneration(protocolID: protocolID, number: number)
    }

    func planReplay(
        to entry: ListenerEntry, by broadcaster: Broadcaster, in context: inout DeliveryContext,
        callsHere: inout [() -> Void]
    ) {
        planReplay(broadcaster, entry, generation, &context, &callsHere)
    }
}

/// Which sticky broadcast a state belongs to: its protocol, and its place in
/// the order the broadcaster recorded sticky broadcasts in.
struct StickyGeneration: Sendable {
    let protocolID: ObjectIdentifier
    let number: UInt64
}

/// The newest sticky broadcast, per protocol, one listener object has been
/// called with.
///
/// Every sticky call (made at once, from a mailbox, or as a replay) claims
/// its generation first; a claim fails once a newer one of the same protocol
/// was claimed. Calls in order all succeed; only a call overtaken by a newer
/// state is skipped (a broadcast resumed after a listener re-broadcast, or a
/// call scheduled before a newer one made directly on the actor).
final class StickyProgress: Sendable {
    private let claimed = Mutex<[ObjectIdentifier: UInt64]>([:])

    func claim(_ generation: StickyGeneration) -> Bool {
        claimed.withLock { claimed in
            if let newest = claimed[generation.protocolID], newest > generation.number { return false }
            claimed[generation.protocolID] = generation.number
            return true
        }
    }
}

import Synchronization

/// The latest sticky broadcast to one protocol type (exactly as passed to
/// `broadcast(to:)`), replayed to listeners that register later: routed as a
/// live call is, and made only if no newer state reached the listener first.
struct StickyBroadcast: Sendable {
    let protocolID: ObjectIdentifier
    let event: (any Sendable)?
    /// For a sticky event: tells its observers (``StickyChangeHandler``)
    /// that the state changed, once this one is cleared.
    let announceChange: (@Sendable (Broadcaster) -> Void)?
    private(set) var generation: StickyGeneration
    /// Enqueues what must run on the listener's actor; appends what runs here
    /// to `callsHere`, made once every replay is planned.
    let planReplay:
        @Sendable (Broadcaster, ListenerEntry, StickyGeneration, inout DeliveryContext, inout [() -> Void]) -> Void

    // The broadcaster is an argument, not a capture: the storage holds no
    // reference to its owner. Only a closure made where `P` is known can cast.
    // A post's state also replays to its closure handlers through `handle`.
    init<P>(
        for _: P.Type, onMainActor: Bool, event: (any Sendable)? = nil,
        announcingChange announceChange: (@Sendable (Broadcaster) -> Void)? = nil,
        handling handle: (@Sendable (EventHandler) -> Void)? = nil,
        _ deliver: @escaping @Sendable (P) -> Void
    ) {
        protocolID = ObjectIdentifier(P.self)
        self.event = event
        self.announceChange = announceChange
        generation = StickyGeneration(protocolID: ObjectIdentifier(P.self), number: 0)
        planReplay = { broadcaster, entry, generation, context, callsHere in
            guard let object = entry.liveObject else { return }
            var answers = ActorAnswers()
            func callHere(_ call: @escaping () -> Void) {
                callsHere.append {
                    guard entry.claims(generation) else { return }
                    StickyCall.making(generation, to: entry, call)
                }
            }
            let route = HandlerRouting.route(
                object, of: entry, as: P.self, onMainActor: onMainActor, reachesHandlers: handle != nil,
                in: &context, answers: &answers, calling: { listener in callHere { deliver(listener) } },
                handling: { handler, _ in callHere { handle?(handler) } }, adapting: { _, _ in nil })
            switch route {
            case .called, .skip:
                break
            case .schedule(let actor):
                broadcaster.schedule(
                    [entry], on: actor, as: P.self, onMainActor: onMainActor, sticky: generation,
                    EscapingCalls(deliver, handling: handle))
            case .settleOnMainActor:
                // The state is kept anyway: the replay waits for the main
                // actor, whose cast settles whether it is made.
                broadcaster.schedule(
                    [entry], on: MainActor.shared, as: P.self, onMainActor: onMainActor, sticky: generation,
                    EscapingCalls(deliver, handling: handle))
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

/// Which sticky broadcast a state belongs to, in recording order.
struct StickyGeneration: Sendable {
    let protocolID: ObjectIdentifier
    let number: UInt64
}

/// The newest sticky broadcast, per protocol, one listener object has been
/// called with: every sticky call claims its generation first, and only a
/// call overtaken by a newer state of its protocol is skipped.
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

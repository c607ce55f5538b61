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
    /// Replays the state to a listener registering
    /// (``Broadcaster/replay(_:to:onMainActor:_:in:callsHere:)``): enqueues
    /// what must run on the listener's actor; appends what runs here to
    /// `callsHere`, made once every replay is planned.
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
        let calls = EscapingCalls(deliver, handling: handle)
        planReplay = { broadcaster, entry, generation, context, callsHere in
            broadcaster.replay(
                generation, to: entry, onMainActor: onMainActor, calls, in: &context, callsHere: &callsHere)
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

/// The sticky call being made, while it runs: what a handler registered with
/// `consumingSticky: true` takes before it runs.
///
/// A task-local value, also bound in synchronous code outside any task, so
/// that the call carries it to the handler without a parameter on every
/// delivery path; it is bound only around sticky calls.
enum StickyCall {
    struct Current: Sendable {
        let generation: StickyGeneration
        /// The registration the call is made through: its listener is the
        /// one called (a call it makes in turn is not this one), and the
        /// state is taken only while it is registered.
        let entry: ListenerEntry
    }

    @TaskLocal static var current: Current?

    /// The sticky calls being made on every thread of the process.
    ///
    /// Zero, no sticky call is being made on this thread either, so a consuming
    /// handler's call skips reading ``current`` (an unspecialised task-local
    /// read, about 150 instructions); a thread inside ``claiming(_:for:_:)``
    /// always reads its own increment.
    private static let inProgress = Atomic<Int>(0)

    /// Whether a sticky call may be being made on this thread: false is
    /// definitive, true is answered by ``current``.
    static var mayBeMaking: Bool { inProgress.load(ordering: .relaxed) != 0 }

    /// Makes `call`, the sticky call of `generation` to `entry`'s listener,
    /// if the listener claims the generation first; returns whether it did.
    ///
    /// A claim fails once a newer state of the protocol reached the listener.
    /// The one way every sticky call is made, live, scheduled or replayed.
    @discardableResult
    static func claiming(_ generation: StickyGeneration, for entry: ListenerEntry, _ call: () -> Void) -> Bool {
        guard entry.claims(generation) else { return false }
        making(generation, to: entry, call)
        return true
    }

    private static func making(_ generation: StickyGeneration, to entry: ListenerEntry, _ call: () -> Void) {
        inProgress.add(1, ordering: .relaxed)
        defer { inProgress.subtract(1, ordering: .relaxed) }
        $current.withValue(Current(generation: generation, entry: entry), operation: call)
    }

    /// The sticky call being made to `listener`, if it is one; the call runs
    /// `body` with none bound, so that the calls `body` makes in turn are not
    /// taken for it.
    static func call(to listener: AnyObject, _ body: (Current?) -> Void) {
        let current = current.flatMap { $0.entry.id == ObjectIdentifier(listener) ? $0 : nil }
        $current.withValue(nil) { body(current) }
    }
}

import Dispatch
import Foundation

/// Where one call to one listener runs: the decision behind every path that
/// calls a listener (broadcasts, scheduled calls, awaited calls, sticky
/// replays), behind an index's take-in, and behind the questions about them
/// (`listeners(of:)`, `deliveryExplanation(for:to:)`).
///
/// In order: a listener with no actor is called here if it is a `P` here. A
/// listener of an actor (every listener, for a main-actor broadcast) is cast
/// and called here when the delivery runs on that actor; a `Sendable` one is
/// also cast here elsewhere, because the runtime's cast succeeds only where
/// its conformance holds. Otherwise the call is scheduled on the actor.
/// ``afterFailedCast(on:of:runsThere:in:)`` alone says what a failed cast
/// means.
enum Routing {
    /// Decides the delivery to `entry`, whose listener is `object`, and makes
    /// the call through `call` if it is made here.
    ///
    /// The call goes through `call` rather than out as a returned `P`: an
    /// enum carrying a `P` is generic, and its metadata is looked up on every
    /// delivery.
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, onMainActor: Bool,
        in context: inout DeliveryContext, answers: inout ActorAnswers, calling call: (P) -> Void
    ) -> Route {
        // The box's identity settles the common cases without a reference to it.
        guard let boxID = onMainActor ? IsolationBox.mainActorID : entry.isolationID else {
            if Conformance.call(consume object, as: P.self, call) { return .called }
            return afterFailedCast(on: nil, in: &context)
        }
        let runsThere = answers.isRunning(onActorWith: boxID, in: &context) {
            actor(of: entry, onMainActor: onMainActor)
        }
        guard runsThere || (!onMainActor && entry.mayBeCalledOffItsActor) else {
            return .schedule(on: actor(of: entry, onMainActor: onMainActor))
        }
        let objectType: AnyObject.Type = type(of: object)
        if Conformance.call(consume object, as: P.self, call) { return .called }
        return afterFailedCast(
            on: actor(of: entry, onMainActor: onMainActor), of: objectType, runsThere: runsThere, in: &context)
    }

    /// What a failed cast means, for a call that would run on `place`.
    ///
    /// With no actor, the listener is not a `P` where the broadcast runs, and
    /// is not called. On an actor, where the runtime can check a conformance
    /// isolated to it, the class is not a `P` there (recorded, so that
    /// indexes drop it); anywhere else nothing is known yet, so the call goes
    /// to the actor, which settles it.
    private static func afterFailedCast(
        on place: (any Actor)?, of type: AnyObject.Type? = nil, runsThere: Bool = false,
        in context: inout DeliveryContext
    ) -> Route {
        guard let place, let type else { return .skip }
        guard runsThere, context.castsAreDefinitive(on: place) else { return .schedule(on: place) }
        return .skipAndRecord(LearnedNonconformance(type: type, actor: place))
    }

    /// Whether `P`'s index lists `entry`, whose listener is `object`: unless
    /// deliveries proved its class is not a `P` on its actor (`known`), the
    /// route decides, as it would for a broadcast made here; a nonconformance
    /// it proves is added to `learned`.
    static func admits<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext, learned: inout [LearnedNonconformance]
    ) -> Bool {
        if let actor = entry.isolation, known.contains(type(of: object), ObjectIdentifier(P.self), on: actor) {
            return false
        }
        var answers = ActorAnswers()
        switch route(
            object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
        {
        case .called, .schedule:
            return true
        case .skip:
            return false
        case .skipAndRecord(let nonconformance):
            learned.append(nonconformance)
            return false
        }
    }

    /// The actor a call to `entry` runs on when it is not made here.
    private static func actor(of entry: ListenerEntry, onMainActor: Bool) -> any Actor {
        guard !onMainActor, let actor = entry.isolation else { return MainActor.shared }
        return actor
    }
}

/// What ``Routing`` decided for one listener.
enum Route {
    case called
    case schedule(on: any Actor)
    case skip
    /// Skip, and record that the class is not a `P` on its actor.
    case skipAndRecord(LearnedNonconformance)
}

/// A listener class proved not to be a `P` on the actor its listener
/// registered from; recorded under the lock after the calls.
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}

/// Whether the delivery runs on a listener's actor, asked once per run of
/// listeners that share an ``IsolationBox``.
struct ActorAnswers {
    // The members keep every box alive during the delivery: an identity is not reused.
    private var lastBox: ObjectIdentifier?
    private var lastAnswer = false

    mutating func isRunning(
        onActorWith id: ObjectIdentifier, in context: inout DeliveryContext, _ actor: () -> any Actor
    ) -> Bool {
        if id == lastBox { return lastAnswer }
        lastAnswer = context.isRunning(on: actor())
        lastBox = id
        return lastAnswer
    }
}

/// The one cast of a listener to its protocol.
///
/// It must stay in unspecialised generic code: the runtime checks a
/// conformance isolated to an actor only in the generic cast
/// (`swift_dynamicCast`); a cast compiled for a concrete protocol does not,
/// and succeeds on any thread. The module has no inlinable code, so no
/// client can specialise it.
enum Conformance {
    /// Calls `call` with `object` as a `P`, if it is one here.
    ///
    /// The object is opened to its class and consumed, so the runtime casts
    /// from the class and the `P` takes over the reference; the cast binds a
    /// `P` directly, so no `Optional<P>` (whose metadata is looked up at run
    /// time) is made.
    @inline(__always)
    static func call<P>(_ object: consuming AnyObject, as _: P.Type, _ call: (P) -> Void) -> Bool {
        callOpened(consume object, as: P.self, call)
    }

    @inline(__always)
    private static func callOpened<Listener: AnyObject, P>(
        _ listener: consuming Listener, as _: P.Type, _ call: (P) -> Void
    ) -> Bool {
        guard let conforming = consume listener as? P else { return false }
        call(conforming)
        return true
    }

    /// Whether `object` is a `P` here.
    static func conforms<P>(_ object: AnyObject, to _: P.Type) -> Bool {
        call(object, as: P.self) { _ in }
    }

    /// Whether a cast here proves `object` a `P` wherever it is called (for
    /// diagnostics): off the main queue, outside every actor, no conformance
    /// isolated to a global actor can be used.
    static func isKnownToConformAnywhere<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext)
        -> Bool
    {
        guard context.isolation == nil, !context.isOnMainQueue else { return false }
        return conforms(object, to: P.self)
    }
}

/// Where a broadcast, registration or query runs: the caller's `#isolation`,
/// and, asked at most once each, whether it runs on the main queue, on the
/// main thread, in a task.
///
/// The runtime's cast for `extension Screen: @MainActor P` succeeds only
/// where it can prove the main actor (Linux, Swift 6.3.1; `scripts/host-matrix`
/// runs each case in a real process): on the main thread outside a task, or
/// in a task on the main actor, but not in a main-queue block serviced by
/// another thread after `dispatchMain()`. For another global actor it
/// succeeds only in a task on it. ``castsAreDefinitive(on:)`` is that rule.
struct DeliveryContext {
    let isolation: (any Actor)?
    private var cachedIsOnMainQueue: Bool?
    private var cachedIsInTask: Bool?
    private var cachedIsOnMainThread: Bool?

    init(isolation: (any Actor)?) {
        self.isolation = isolation
        if let isolation, isolation === MainActor.shared { cachedIsOnMainQueue = true }
    }

    /// Whether a listener registered on `actor` can be called right here.
    mutating func isRunning(on actor: any Actor) -> Bool {
        if let isolation, isolation === actor { return true }
        return actor === MainActor.shared && isOnMainQueue
    }

    /// Whether a cast that fails here, for a listener registered on `actor`,
    /// proves that it does not conform.
    mutating func castsAreDefinitive(on actor: any Actor) -> Bool {
        guard isRunning(on: actor) else { return false }
        if isInTask { return true }
        return actor === MainActor.shared && isOnMainThread
    }

    var isInTask: Bool {
        // The task handle is only compared with nil, as `withUnsafeCurrentTask` requires.
        mutating get { Self.answer(&cachedIsInTask) { withUnsafeCurrentTask { $0 != nil } } }
    }

    var isOnMainThread: Bool {
        mutating get { Self.answer(&cachedIsOnMainThread) { Thread.isMainThread } }
    }

    var isOnMainQueue: Bool {
        mutating get { Self.answer(&cachedIsOnMainQueue) { MainQueue.isCurrent } }
    }

    @inline(__always)
    private static func answer(_ cache: inout Bool?, _ question: () -> Bool) -> Bool {
        if let cache { return cache }
        let answer = question()
        cache = answer
        return answer
    }
}

// Whether code runs on the main queue, where the main actor runs: the queue
// is tagged and the tag read back. `Thread.isMainThread` is not the test on
// Linux, where main-actor code can run on another thread after
// `dispatchMain()`, and the standard library has no query that does not trap.
private enum MainQueue {
    private static let key: Key = {
        let key = Key()
        DispatchQueue.main.setSpecific(key: key.key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key.key) != nil }

    private final class Key: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and only passed to Dispatch's
        // thread-safe `setSpecific`/`getSpecific`; not every overlay declares it Sendable.
        let key = DispatchSpecificKey<UInt8>()
    }
}

/// A `@MainActor` call carried as a plain `@Sendable` one, as
/// `broadcastOnMainActor` hands it to the delivery path.
///
/// The path makes every call of a main-actor broadcast on the main actor
/// (where ``Routing`` found it, or in its mailbox); `MainActor.assumeIsolated`
/// checks that on every call.
enum MainActorCall {
    static func wrap<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in call(deliver, with: listener) }
    }

    static func call<P>(_ deliver: @MainActor (P) -> Void, with listener: P) {
        // `nonisolated(unsafe)`: the listener was obtained on the main actor for
        // this call only; `assumeIsolated` checks the caller is there.
        nonisolated(unsafe) let listener = listener
        MainActor.assumeIsolated { deliver(listener) }
    }
}

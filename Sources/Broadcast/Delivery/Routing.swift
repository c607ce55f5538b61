import Dispatch
import Foundation

/// Where one call to one listener runs: the one decision behind every path
/// that calls a listener, an index's take-in, `listeners(of:)` and
/// `deliveryExplanation(for:to:)`.
///
/// A listener with no actor is called here if it is a `P` here. One of an
/// actor (any, for a main-actor broadcast) is cast here when the delivery
/// runs on that actor, or, if `Sendable`, anywhere its conformance holds;
/// otherwise its call is scheduled on the actor.
enum Routing {
    /// Decides the delivery to `entry`, and makes the call if it is made here
    /// (through `call`: a returned `P` would make the result a generic enum,
    /// whose metadata is looked up on every delivery).
    @inline(__always)
    static func route<P>(
        _ object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type, onMainActor: Bool,
        in context: inout DeliveryContext, answers: inout ActorAnswers, calling call: (P) -> Void
    ) -> Route {
        // The box's identity settles the common cases without a reference to it.
        guard let boxID = onMainActor ? IsolationBox.mainActorID : entry.isolationID else {
            if entry.conformsOnlyOnMainActor(as: P.self) {
                return routeToMainActor(consume object, as: P.self, in: &context, calling: call)
            }
            if Conformance.call(consume object, as: P.self, call) { return .called }
            return afterFailedCastWithNoActor(of: entry, in: &context)
        }
        let runsThere = answers.isRunning(onActorWith: boxID, in: &context) {
            actor(of: entry, onMainActor: onMainActor)
        }
        guard runsThere || (!onMainActor && entry.mayBeCalledOffItsActor) else {
            if onMainActor, entry.isUnsettledWithNoActor {
                return mainActorRoute(ofUnsettled: consume object, of: entry, as: P.self, in: &context)
            }
            return .schedule(on: actor(of: entry, onMainActor: onMainActor))
        }
        let objectType: AnyObject.Type = type(of: object)
        if Conformance.call(consume object, as: P.self, call) { return .called }
        return afterFailedCast(
            of: entry, onMainActor: onMainActor, type: objectType, runsThere: runsThere, in: &context)
    }

    /// What a failed cast means for a listener of an actor: where the runtime
    /// can check a conformance isolated to the actor the call runs on, not a
    /// `P` there (recorded, so that indexes drop it); anywhere else unknown,
    /// so the call goes to that actor, which settles it.
    @inline(never)
    private static func afterFailedCast(
        of entry: ListenerEntry, onMainActor: Bool, type: AnyObject.Type, runsThere: Bool,
        in context: inout DeliveryContext
    ) -> Route {
        let place = actor(of: entry, onMainActor: onMainActor)
        guard runsThere, context.castsAreDefinitive(on: place) else { return .schedule(on: place) }
        return .skipAndRecord(LearnedNonconformance(type: type, actor: place))
    }

    /// A listener with no actor the main actor found a `P` only there: called
    /// where that is proven, otherwise scheduled there without a cast that
    /// would fail.
    @inline(never)
    private static func routeToMainActor<P>(
        _ object: consuming AnyObject, as _: P.Type, in context: inout DeliveryContext, calling call: (P) -> Void
    ) -> Route {
        guard context.castsAreDefinitive(on: MainActor.shared) else { return .schedule(on: MainActor.shared) }
        let objectType: AnyObject.Type = type(of: object)
        if Conformance.call(consume object, as: P.self, call) { return .called }
        return .skipAndRecord(LearnedNonconformance(type: objectType, actor: MainActor.shared))
    }

    /// What a failed cast means for a user's listener with no actor.
    ///
    /// Where the main actor's conformances are seen, not a `P` (recorded, so
    /// that indexes drop it). Anywhere else, for a listener the main actor
    /// has found a conformance isolated to it, the call goes there, as for
    /// one registered from main-actor code; for any other, it cannot be told
    /// from one that does not conform, so it is not called here, and the
    /// main actor is asked to settle it. Broadcast's own listeners, and
    /// runtimes that do not check isolated conformances, have no such
    /// conformance: a failed cast is definitive.
    @inline(never)
    private static func afterFailedCastWithNoActor(of entry: ListenerEntry, in context: inout DeliveryContext)
        -> Route
    {
        guard entry.conformanceMayBeIsolated, ListenerEntry.runtimeChecksIsolatedConformances else { return .skip }
        guard context.castsAreDefinitive(on: MainActor.shared) else {
            return entry.hasConformanceIsolatedToMainActor ? .schedule(on: MainActor.shared) : .settleOnMainActor
        }
        guard let object = entry.liveObject else { return .skip }
        return .skipAndRecord(LearnedNonconformance(type: type(of: object), actor: MainActor.shared))
    }

    /// A main-actor broadcast made elsewhere, to a listener with no actor the
    /// main actor has not settled: scheduled if it conforms here (it does
    /// wherever it is called), otherwise left to the main actor to settle,
    /// as a broadcast made here would.
    @inline(never)
    private static func mainActorRoute<P>(
        ofUnsettled object: consuming AnyObject, of entry: ListenerEntry, as _: P.Type,
        in context: inout DeliveryContext
    ) -> Route {
        if Conformance.conforms(object, to: P.self) { return .schedule(on: MainActor.shared) }
        return afterFailedCastWithNoActor(of: entry, in: &context)
    }

    /// Whether `P`'s index lists `entry`: unless `known` says its class is not
    /// a `P` on its actor, as the route of a broadcast made here decides.
    static func admits<P>(
        _ object: AnyObject, of entry: ListenerEntry, as _: P.Type, knowing known: KnownNonconformances,
        in context: inout DeliveryContext, learned: inout [LearnedNonconformance]
    ) -> Bool {
        if let actor = actorSettling(entry), known.contains(type(of: object), ObjectIdentifier(P.self), on: actor) {
            return false
        }
        var answers = ActorAnswers()
        switch route(
            object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
        {
        case .called, .schedule, .settleOnMainActor:
            // An unsettled listener stays listed: the main actor settles it.
            return true
        case .skip:
            return false
        case .skipAndRecord(let nonconformance):
            learned.append(nonconformance)
            return false
        }
    }

    /// The actor whose cast settles whether `entry` conforms: its own, or,
    /// for a user's listener with no actor, the main actor.
    private static func actorSettling(_ entry: ListenerEntry) -> (any Actor)? {
        if let actor = entry.isolation { return actor }
        return entry.conformanceMayBeIsolated ? MainActor.shared : nil
    }

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
    /// A listener with no actor whose cast failed where a conformance
    /// isolated to the main actor cannot be checked, and that the main actor
    /// has not settled yet: not called here; the main actor is asked once
    /// (``Broadcaster/requestSettlement(of:as:)``), and the index keeps it.
    case settleOnMainActor
}

/// A listener class proved not to be a `P` on an actor.
struct LearnedNonconformance: Sendable {
    let type: AnyObject.Type
    let actor: any Actor
}

/// Whether the delivery runs on a listener's actor, asked once per run of
/// listeners that share an ``IsolationBox`` (the members keep every box
/// alive, so an identity is not reused).
struct ActorAnswers {
    private var lastBox: ObjectIdentifier?
    private var lastAnswer = false

    mutating func isRunning(
        onActorWith id: ObjectIdentifier, in context: inout DeliveryContext, _ actor: () -> any Actor
    ) -> Bool {
        if id == lastBox { return lastAnswer }
        // The main actor's box needs no look at its actor.
        lastAnswer = id == IsolationBox.mainActorID ? context.isOnMainQueue : context.isRunning(on: actor())
        lastBox = id
        return lastAnswer
    }
}

/// The one cast of a listener to its protocol.
///
/// It stays in unspecialised generic code: the runtime checks a conformance
/// isolated to an actor only in the generic cast (`swift_dynamicCast`); a
/// cast compiled for a concrete protocol succeeds on any thread.
enum Conformance {
    /// Calls `call` with `object` as a `P`, if it is one here; opened to its
    /// class, so the runtime casts from the class, and consumed, so the `P`
    /// takes over the reference.
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

    static func conforms<P>(_ object: AnyObject, to _: P.Type) -> Bool {
        call(object, as: P.self) { _ in }
    }

    /// Whether a cast here proves `object` a `P` wherever it is called: off
    /// the main queue, outside every actor, no isolated conformance is used.
    static func isKnownToConformAnywhere<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext)
        -> Bool
    {
        guard context.isolation == nil, !context.isOnMainQueue else { return false }
        return conforms(object, to: P.self)
    }
}

/// Where a broadcast, registration or query runs: the caller's `#isolation`,
/// and (asked at most once each) main queue, main thread, task.
///
/// The cast for `extension Screen: @MainActor P` succeeds only where the
/// runtime can prove the main actor: on the main thread outside a task, or in
/// a task on the main actor, not in a main-queue block run by another thread
/// after `dispatchMain()` (`scripts/host-matrix`); for another global actor,
/// only in a task on it. ``castsAreDefinitive(on:)`` is that rule.
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

    /// Whether a failed cast here proves a listener of `actor` does not conform.
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

// Whether code runs on the main queue, where the main actor runs, read from a
// tag: on Linux main-actor code can run off the main thread after
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

/// A `@MainActor` call carried as a plain `@Sendable` one; the delivery path
/// makes it on the main actor only, which `assumeIsolated` checks each time.
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

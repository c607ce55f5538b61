import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The steps every synchronous delivery shares, with no lock held: each
/// entry is checked just before its call, so a removal or release during a
/// delivery takes effect for the rest of it.
///
/// A protocol broadcast's calls are in `BroadcastDelivery.swift`, a post's in
/// `PostDelivery.swift`; both read their members here, note each ``Route``
/// in a ``DeliveryRun``, and leave what it did not do to
/// ``Broadcaster/finish(_:as:onMainActor:sticky:_:)``.
enum Delivery {}

extension Broadcaster {
    @inline(__always)
    func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        members(from: storage.members(of: P.self as Any.Type), as: P.self, in: &context)
    }

    @inline(__always)
    func members<P>(from read: consuming Members, as _: P.Type, in context: inout DeliveryContext)
        -> [ListenerEntry]
    {
        switch consume read {
        case .ready(let members):
            // Debug builds: an answer left open may be settled where this runs.
            checkIsolatedConformances(of: [], as: P.self, in: &context)
            return members
        case .one(let entry):
            return [entry]
        case .intake(let intake):
            return takeIn(intake, as: P.self, in: &context)
        }
    }

    /// Decides an index's new entries with no lock held (a cast may run a
    /// custom executor's isolation check), commits the decision, and returns
    /// the members this broadcast uses whether or not the commit applied.
    private func takeIn<P>(_ intake: IndexIntake, as _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        var admitted: [ListenerEntry] = []
        var learned: [LearnedNonconformance] = []
        // Only a rebuild meets an object twice: a second entry changes the layout.
        var seen: Set<ObjectIdentifier>? = intake.isRebuild ? [] : nil
        for case let entry? in intake.entries where entry.listens(to: intake.protocolID) {
            guard let object = entry.liveObject,
                HandlerRouting.admits(
                    object, of: entry, as: P.self, knowing: intake.known, in: &context, learned: &learned),
                seen?.insert(entry.id).inserted != false
            else { continue }
            admitted.append(entry)
        }
        storage.commit(intake, admitting: admitted, learned: learned)
        checkIsolatedConformances(of: intake.entries, as: P.self, in: &context)
        return intake.members + admitted
    }

    /// The tap's watch of a delivery starting now (``TapWatch``), shown the
    /// delivery once its synchronous part is done; nil when no tap is set,
    /// after one atomic load: `subject` nil for a post the library makes
    /// for itself, which no tap sees.
    @inline(__always)
    func watch(_ kind: BroadcastObservation.Kind, of subject: (any Any.Type)?, sticky: Bool) -> TapWatch? {
        guard let tap = tapSlot.load(), let subject else { return nil }
        return TapWatch.started(by: self, tap: tap, kind, of: subject, sticky: sticky)
    }

    /// Debug builds: the isolated-conformance check, with no lock held.
    func checkIsolatedConformances<P>(
        of considered: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext
    ) {
        #if DEBUG
            isolatedConformanceCheck.inspect(considered, as: P.self, in: &context, for: self)
        #endif
    }

    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        storage.record(learned, as: P.self)
    }

    /// A sticky broadcast is recorded in the critical section that reads the
    /// members: every listener is among them or registers later and is replayed it.
    func recordSticky<P>(_ sticky: StickyBroadcast, as _: P.Type, in context: inout DeliveryContext)
        -> (members: [ListenerEntry], generation: StickyGeneration)
    {
        let (read, generation) = storage.keepSticky(sticky, readingMembersOf: P.self as Any.Type)
        return (members(from: read, as: P.self, in: &context), generation)
    }

    /// Replays the sticky state of `generation` to `entry`, which registered.
    ///
    /// Routed as a live call of the same broadcast or post is, and what it
    /// leaves carried out as a live delivery's leftovers are (``finish``: a
    /// call the main actor settles takes room in ``UnsettledCallLimit``, and
    /// the main actor settles the listener). A call made here is appended to
    /// `callsHere`, made once every replay is planned, and claims the
    /// generation then.
    func replay<P>(
        _ generation: StickyGeneration, to entry: ListenerEntry, onMainActor: Bool, _ calls: EscapingCalls<P>,
        in context: inout DeliveryContext, callsHere: inout [() -> Void]
    ) {
        var run = DeliveryRun()
        func callHere(_ call: @escaping () -> Void) {
            callsHere.append { StickyCall.claiming(generation, for: entry, call) }
        }
        if let handle = calls.handle {
            Delivery.deliverPost(
                to: entry, in: &context, into: &run, { listener in callHere { calls.call(listener) } },
                handling: { handler, _ in callHere { handle(handler) } }, adapting: { _, _ in nil })
        } else {
            Delivery.deliver(
                to: entry, onMainActor: onMainActor, in: &context, into: &run,
                { listener in callHere { calls.call(listener) } })
        }
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: generation, calls)
        }
    }

    /// Carries out what a synchronous delivery left (``DeliveryRun/Leftovers``),
    /// whichever path made it (a broadcast, a post, a replay): records the
    /// nonconformances learned, and schedules each actor's calls as one job;
    /// the calls the main actor settles (``Route/settleOnMainActor``) ride
    /// in its job only if ``UnsettledCallLimit`` has room for them.
    func finish<P>(
        _ leftovers: DeliveryRun.Leftovers, as _: P.Type, onMainActor: Bool, sticky: StickyGeneration?,
        _ deliver: EscapingCalls<P>
    ) {
        if !leftovers.learned.isEmpty { record(leftovers.learned, as: P.self) }
        var settling: [ListenerEntry] = []
        if !leftovers.unsettled.isEmpty {
            if unsettledCalls.take() {
                settling = leftovers.unsettled
            } else {
                reportUnsettledCallsRefused(leftovers.unsettled, as: P.self)
                leftovers.withdrawUnsettled()
            }
        }
        for batch in leftovers.batches where !batch.entries.isEmpty {
            schedule(
                batch.entries, on: batch.actor, as: P.self, onMainActor: onMainActor, sticky: sticky,
                settling: batch.actor === MainActor.shared ? settling : [], deliver)
        }
    }

    /// One job on `actor`'s mailbox routes `entries` again there, where every
    /// cast is definitive.
    ///
    /// `settling` are listeners with no actor among `entries` whose cast
    /// failed where the delivery ran (``Route/settleOnMainActor``): the
    /// main actor's cast has made or skipped their calls, and now settles them.
    private func schedule<P>(
        _ entries: [ListenerEntry], on actor: any Actor, as _: P.Type, onMainActor: Bool,
        sticky: StickyGeneration?, settling: [ListenerEntry], _ deliver: EscapingCalls<P>
    ) {
        mailboxes.mailbox(for: actor).enqueue { actor in
            var context = DeliveryContext(isolation: actor)
            var run = DeliveryRun()
            deliver.deliver(to: entries, onMainActor: onMainActor, sticky: sticky, in: &context, into: &run)
            if let learned = run.leftovers?.learned, !learned.isEmpty { self.record(learned, as: P.self) }
            if !settling.isEmpty { self.settle(settling, as: P.self, in: &context) }
        }
    }

    /// On the main actor, after the calls of `entries`, listeners with no
    /// actor whose cast failed elsewhere: one that is a `P` here is one only
    /// here (``ListenerEntry/noteConformanceIsolatedToMainActor(as:)``), so
    /// later broadcasts made elsewhere schedule its calls without a cast; one
    /// that is not was recorded by its call's route, and indexes drop it.
    private func settle<P>(_ entries: [ListenerEntry], as _: P.Type, in context: inout DeliveryContext) {
        for entry in entries {
            guard let object = entry.liveObject, Conformance.conforms(object, to: P.self) else { continue }
            entry.noteConformanceIsolatedToMainActor(as: P.self)
        }
        unsettledCalls.give()
        // Debug builds: a listener settled here may be one the
        // isolated-conformance check reports, before any later wait returns.
        checkIsolatedConformances(of: [], as: P.self, in: &context)
    }

    /// Debug builds: the calls a broadcast could not keep, reported once.
    private func reportUnsettledCallsRefused<P>(_ entries: [ListenerEntry], as _: P.Type) {
        #if DEBUG
            guard unsettledCalls.isFirstRefusal() else { return }
            let object = entries.lazy.compactMap(\.liveObject).first
            let site = entries.first?.registrationSite
            report(
                BroadcastDiagnostic(
                    kind: .unsettledCallLimitReached,
                    typeName: object.map { String(describing: type(of: $0)) } ?? "a released listener",
                    protocolName: String(describing: P.self), fileID: site.map { "\($0.fileID)" } ?? "",
                    line: site.map { Int($0.line) } ?? 0))
        #endif
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
    private var cachedCastsAreDefinitiveOnMainActor: Bool?

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
        // The main thread is asked first: it costs a tenth of asking for
        // the current task, and answers every main-actor post made there.
        if actor === MainActor.shared && isOnMainThread { return true }
        return isInTask
    }

    /// ``castsAreDefinitive(on:)`` for the main actor, asked once: a post
    /// asks it for every listener called through a typed call proven there.
    var castsAreDefinitiveOnMainActor: Bool {
        mutating get {
            if let cachedCastsAreDefinitiveOnMainActor { return cachedCastsAreDefinitiveOnMainActor }
            let answer = castsAreDefinitive(on: MainActor.shared)
            cachedCastsAreDefinitiveOnMainActor = answer
            return answer
        }
    }

    /// Whether a cast that succeeds here proves the conformance holds
    /// wherever the listener is called.
    ///
    /// With no actor, off the main queue and outside every task, no isolated
    /// conformance can be used. In a task,
    /// code with no actor of its own may still run on an actor's executor (a
    /// synchronous nonisolated function called from the actor's code), where
    /// the runtime's cast uses a conformance isolated to that actor.
    var castProvesConformanceAnywhere: Bool {
        mutating get { isolation == nil && !isOnMainQueue && !isInTask }
    }

    var isInTask: Bool {
        // The task handle is only compared with nil, as `withUnsafeCurrentTask` requires.
        mutating get { Self.answer(&cachedIsInTask) { withUnsafeCurrentTask { $0 != nil } } }
    }

    var isOnMainThread: Bool {
        mutating get { Self.answer(&cachedIsOnMainThread) { MainThread.isCurrent } }
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

// Whether code runs on the main queue, where the main actor runs, read from a
// tag: on Linux main-actor code can run off the main thread after
// `dispatchMain()`, and the standard library has no query that does not trap.
enum MainQueue {
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

/// Whether code runs on the process's main thread.
///
/// On Linux, `Thread.isMainThread` makes two system calls (`getpid` and
/// `gettid`) on every question: about 250 ns here, more than a post to one
/// handler costs. The main thread's `pthread_self()` is kept the first time
/// Foundation answers yes, and compared after that: the main thread lives as
/// long as the process, so no other live thread has its identifier. (A
/// process forked from another thread would keep its parent's: Swift
/// programs fork only to `exec`, through Foundation's `Process`.)
enum MainThread {
    #if canImport(Glibc)
        /// The main thread's `pthread_self()`; 0 until it was first seen.
        private static let identifier = Atomic<UInt>(0)

        static var isCurrent: Bool {
            isMain(pthread_self(), knownMain: identifier) { Thread.isMainThread }
        }
    #else
        static var isCurrent: Bool { Thread.isMainThread }
    #endif

    /// Whether `thread` is the main thread: compared with `knownMain` once
    /// it holds the main thread's identifier, asked of `foundationAnswer`
    /// (and kept, if yes) until then.
    ///
    /// No thread's identifier is 0. `knownMain` is stored only by the main
    /// thread, always the same value, so a relaxed load sees 0 or that value.
    static func isMain(_ thread: UInt, knownMain: borrowing Atomic<UInt>, foundationAnswer: () -> Bool) -> Bool {
        let main = knownMain.load(ordering: .relaxed)
        if main != 0 { return thread == main }
        guard foundationAnswer() else { return false }
        knownMain.store(thread, ordering: .relaxed)
        return true
    }
}

/// What one delivery made, and what it left to do; the leftovers are made
/// only when a call is scheduled or a nonconformance learned.
struct DeliveryRun {
    var count = 0
    private(set) var leftovers: Leftovers?

    final class Leftovers {
        struct Batch {
            let actor: any Actor
            var entries: [ListenerEntry]
        }

        var batches: [Batch] = []
        var learned: [LearnedNonconformance] = []
        /// Scheduled on the main actor, which settles them.
        var unsettled: [ListenerEntry] = []

        /// Takes the unsettled calls out of the main actor's batch.
        func withdrawUnsettled() {
            for index in batches.indices where batches[index].actor === MainActor.shared {
                batches[index].entries.removeAll { entry in unsettled.contains { $0 === entry } }
            }
            unsettled = []
        }
    }

    @inline(__always)
    mutating func note(_ route: Route, for entry: ListenerEntry) {
        switch route {
        case .called:
            count += 1
        case .skip:
            break
        case .schedule(let actor):
            schedule(entry, on: actor)
        case .skipAndRecord(let nonconformance):
            learn(nonconformance)
        case .settleOnMainActor:
            settleOnMainActor(entry)
        }
    }

    /// Scheduled on the main actor but not counted: whether a call is made
    /// is known only there.
    @inline(never)
    mutating func settleOnMainActor(_ entry: ListenerEntry) {
        batch(entry, on: MainActor.shared)
        leftovers?.unsettled.append(entry)
    }

    mutating func schedule(_ entry: ListenerEntry, on actor: any Actor) {
        count += 1
        batch(entry, on: actor)
    }

    private mutating func batch(_ entry: ListenerEntry, on actor: any Actor) {
        let leftovers = leftovers ?? made()
        // Few distinct actors (usually the main actor only): a linear search beats hashing.
        if let index = leftovers.batches.firstIndex(where: { $0.actor === actor }) {
            leftovers.batches[index].entries.append(entry)
        } else {
            leftovers.batches.append(Leftovers.Batch(actor: actor, entries: [entry]))
        }
    }

    mutating func learn(_ nonconformance: LearnedNonconformance) {
        (leftovers ?? made()).learned.append(nonconformance)
    }

    private mutating func made() -> Leftovers {
        let made = Leftovers()
        leftovers = made
        return made
    }
}

/// A delivery's calls in the escaping form a call scheduled on an actor, or
/// a sticky state, keeps: to listeners as `P`, and for a post to its closure
/// handlers (nil for a protocol broadcast).
struct EscapingCalls<P>: Sendable {
    let call: @Sendable (P) -> Void
    let handle: (@Sendable (EventHandler) -> Void)?

    init(_ call: @escaping @Sendable (P) -> Void, handling handle: (@Sendable (EventHandler) -> Void)? = nil) {
        self.call = call
        self.handle = handle
    }

    /// A scheduled call's delivery: a post's through the post's loop, a
    /// protocol broadcast's through the broadcast's.
    func deliver(
        to entries: [ListenerEntry], onMainActor: Bool, sticky: StickyGeneration?,
        in context: inout DeliveryContext, into run: inout DeliveryRun
    ) {
        guard let handle else {
            return Delivery.deliver(
                to: entries, onMainActor: onMainActor, sticky: sticky, in: &context, into: &run, call)
        }
        Delivery.deliverPost(
            to: entries, sticky: sticky, in: &context, into: &run, call, handling: { handler, _ in handle(handler) },
            adapting: { _, _ in nil })
    }
}

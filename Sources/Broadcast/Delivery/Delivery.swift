extension Broadcaster {
    /// The one path behind every synchronous broadcast and post: one trip
    /// through the lock, then the calls with no lock held (a payload passed
    /// `with:` is copied into a closure only for a call scheduled on an actor).
    ///
    /// A post uses ``sendPost(to:from:calling:handling:adapting:makingEscaping:)``.
    func send<P>(
        to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?, calling call: (P) -> Void,
        adapting adapt: Adapting<P>, makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        sendNow(
            to: P.self, onMainActor: onMainActor, from: isolation, calling: call, handling: { _, _ in },
            reachesHandlers: false, adapting: adapt, makingEscaping: makeEscaping)
    }

    /// ``send(to:onMainActor:from:calling:adapting:makingEscaping:)`` for a
    /// post: `handle` is its typed call to its closure handlers, and it
    /// makes its escaping form too.
    ///
    /// A function of its own, so that its body holds no cast to `P`: a post
    /// met by a handler never looks up `Optional<P>`'s metadata, which the
    /// cast needs (about 320 instructions, a sixth of a post to one handler).
    /// An object conforming to ``EventListener`` is routed out of line.
    func sendPost<P>(
        to _: P.Type, from isolation: (any Actor)?, calling call: (P) -> Void, handling handle: HandlerCall,
        adapting adapt: Adapting<P>, makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        sendNow(
            to: P.self, onMainActor: false, from: isolation, calling: call, handling: handle, reachesHandlers: true,
            adapting: adapt, makingEscaping: makeEscaping)
    }

    @inline(__always)
    private func sendNow<P>(
        to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?, calling call: (P) -> Void,
        handling handle: HandlerCall, reachesHandlers: Bool, adapting adapt: Adapting<P>,
        makingEscaping makeEscaping: () -> EscapingCalls<P>
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        var run = DeliveryRun()
        switch storage.members(of: P.self as Any.Type, singling: true) {
        case .one(let entry):
            Delivery.deliver(
                to: entry, as: P.self, onMainActor: onMainActor, in: &context, into: &run, call, handling: handle,
                reachesHandlers: reachesHandlers, adapting: adapt)
        case let read:
            let members = members(from: read, as: P.self, in: &context)
            Delivery.deliver(
                to: members, as: P.self, onMainActor: onMainActor, sticky: nil, in: &context, into: &run, call,
                handling: handle, reachesHandlers: reachesHandlers, adapting: adapt)
        }
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: nil, makeEscaping())
        }
        return run.count
    }

    /// A sticky broadcast is recorded in the critical section that reads the
    /// members: every listener is among them or registers later and is replayed it.
    func sendSticky<P>(
        _ sticky: StickyBroadcast, to _: P.Type, onMainActor: Bool, from isolation: (any Actor)?,
        calling call: (P) -> Void, escaping deliver: EscapingCalls<P>, adapting adapt: Adapting<P>
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        let (read, generation) = storage.keepSticky(sticky, readingMembersOf: P.self as Any.Type)
        let members = members(from: read, as: P.self, in: &context)
        var run = DeliveryRun()
        Delivery.deliver(
            to: members, as: P.self, onMainActor: onMainActor, sticky: generation, in: &context, into: &run, call,
            handling: { handler, _ in deliver.handle?(handler) }, reachesHandlers: deliver.handle != nil,
            adapting: adapt)
        if let leftovers = run.leftovers {
            finish(leftovers, as: P.self, onMainActor: onMainActor, sticky: generation, deliver)
        }
        return run.count
    }

    @inline(__always)
    func members<P>(of _: P.Type, in context: inout DeliveryContext) -> [ListenerEntry] {
        members(from: storage.members(of: P.self as Any.Type), as: P.self, in: &context)
    }

    @inline(__always)
    private func members<P>(from read: consuming Members, as _: P.Type, in context: inout DeliveryContext)
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

    /// Debug builds: the isolated-conformance check, with no lock held.
    func checkIsolatedConformances<P>(
        of considered: ArraySlice<ListenerEntry?>, as _: P.Type, in context: inout DeliveryContext
    ) {
        #if DEBUG
            isolatedConformanceCheck.inspect(considered, as: P.self, in: &context, for: self)
        #endif
    }

    /// Schedules what the delivery left: the calls to listeners the main
    /// actor settles only if ``UnsettledCallLimit`` has room for them.
    private func finish<P>(
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
    /// failed where the broadcast ran (``Route/settleOnMainActor``): the
    /// main actor's cast has made or skipped their calls, and now settles them.
    func schedule<P>(
        _ entries: [ListenerEntry], on actor: any Actor, as _: P.Type, onMainActor: Bool = false,
        sticky: StickyGeneration?, settling: [ListenerEntry] = [], _ deliver: EscapingCalls<P>
    ) {
        mailboxes.mailbox(for: actor).enqueue { actor in
            var context = DeliveryContext(isolation: actor)
            var run = DeliveryRun()
            Delivery.deliver(
                to: entries, as: P.self, onMainActor: onMainActor, sticky: sticky, in: &context, into: &run,
                deliver.call, handling: { handler, _ in deliver.handle?(handler) },
                reachesHandlers: deliver.handle != nil,
                adapting: { _, _ in nil })
            if let learned = run.leftovers?.learned, !learned.isEmpty { self.record(learned, as: P.self) }
            if !settling.isEmpty { self.settle(settling, as: P.self, in: &context) }
        }
    }

    /// On the main actor, after the calls of `entries`, listeners with no
    /// actor whose cast failed elsewhere: one that is a `P` here is one only
    /// here (its conformance is isolated to the main actor), so later
    /// broadcasts made elsewhere schedule its calls without a cast; one that
    /// is not was recorded by its call's route, and indexes drop it.
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

    func record<P>(_ learned: [LearnedNonconformance], as _: P.Type) {
        storage.record(learned, as: P.self)
    }
}

/// The calls of a synchronous delivery, in registration order, with no lock
/// held: each entry is checked just before its call, so a removal or release
/// during a broadcast takes effect for the rest of it.
enum Delivery {
    @inline(__always)
    static func deliver<P>(
        to members: [ListenerEntry], as _: P.Type, onMainActor: Bool, sticky: StickyGeneration?,
        in context: inout DeliveryContext, into run: inout DeliveryRun, _ call: (P) -> Void,
        handling handle: HandlerCall, reachesHandlers: Bool, adapting adapt: Adapting<P>
    ) {
        if let sticky {
            return deliver(
                to: members, as: P.self, onMainActor: onMainActor, claiming: sticky, in: &context, into: &run, call,
                handling: handle, reachesHandlers: reachesHandlers, adapting: adapt)
        }
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            let route = HandlerRouting.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, reachesHandlers: reachesHandlers,
                in: &context, answers: &answers, calling: call, handling: handle, adapting: adapt)
            run.note(route, for: entry)
        }
    }

    /// A delivery to a single member.
    @inline(__always)
    static func deliver<P>(
        to entry: ListenerEntry, as _: P.Type, onMainActor: Bool, in context: inout DeliveryContext,
        into run: inout DeliveryRun, _ call: (P) -> Void, handling handle: HandlerCall, reachesHandlers: Bool,
        adapting adapt: Adapting<P>
    ) {
        guard let object = entry.liveObject else { return }
        var answers = ActorAnswers()
        let route = HandlerRouting.route(
            consume object, of: entry, as: P.self, onMainActor: onMainActor, reachesHandlers: reachesHandlers,
            in: &context, answers: &answers, calling: call, handling: handle, adapting: adapt)
        run.note(route, for: entry)
    }

    /// Each call of a sticky broadcast claims its generation first.
    private static func deliver<P>(
        to members: [ListenerEntry], as _: P.Type, onMainActor: Bool, claiming sticky: StickyGeneration,
        in context: inout DeliveryContext, into run: inout DeliveryRun, _ call: (P) -> Void,
        handling handle: HandlerCall, reachesHandlers: Bool, adapting adapt: Adapting<P>
    ) {
        var answers = ActorAnswers()
        for entry in members {
            guard let object = entry.liveObject else { continue }
            var claimed = false
            // The call, to a listener or a handler, claims the generation first.
            func claiming(_ call: () -> Void) {
                guard entry.claims(sticky) else { return }
                claimed = true
                StickyCall.making(sticky, to: entry, call)
            }
            let route = HandlerRouting.route(
                consume object, of: entry, as: P.self, onMainActor: onMainActor, reachesHandlers: reachesHandlers,
                in: &context, answers: &answers, calling: { listener in claiming { call(listener) } },
                handling: { handler, _ in claiming { handle(handler, nil) } }, adapting: adapt)
            if case .called = route, !claimed { continue }
            run.note(route, for: entry)
        }
    }
}

/// A post's call to one of its closure handlers (``HandlerRouting``): typed,
/// made by the post that knows the event; given, for an
/// ``EventListenerAdapter``, the listener the delivery loaded.
@usableFromInline
typealias HandlerCall = (consuming EventHandler, consuming AnyObject?) -> Void

/// A delivery's calls in the escaping form a call scheduled on an actor, or
/// a sticky state, keeps: to listeners as `P`, and for a post to its closure
/// handlers.
struct EscapingCalls<P>: Sendable {
    let call: @Sendable (P) -> Void
    let handle: (@Sendable (EventHandler) -> Void)?

    init(_ call: @escaping @Sendable (P) -> Void, handling handle: (@Sendable (EventHandler) -> Void)? = nil) {
        self.call = call
        self.handle = handle
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

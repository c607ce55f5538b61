/// The calls of an awaited broadcast, with no lock held: each call, and the
/// cast that produces its `P`, is made on the listener's actor if it has one,
/// so a conformance isolated to that actor is checked and used there only.
enum AwaitedDelivery {
    typealias Deliver<P, Failure: Error> =
        nonisolated(nonsending) @Sendable (sending P) async throws(Failure) -> Void

    /// The one path behind every awaited broadcast and post: `P`'s members
    /// read in one trip through the lock, called in `order`, then shown to
    /// the tap, if one is set (``TapWatch``), whether the calls returned or
    /// one threw.
    static func deliver<P, Failure: Error>(
        to _: P.Type,
        watchedAs subject: any Any.Type,
        order: AwaitedDeliveryOrder,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall? = nil,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) -> Int {
        let watch = broadcaster.watch(.awaitedBroadcast, of: subject, sticky: false)
        var context = DeliveryContext(isolation: isolation)
        let members = broadcaster.members(of: P.self, in: &context)
        var made = 0
        defer { watch?.observe(called: made) }
        switch order.mode {
        case .sequential:
            try await deliverSequentially(
                to: members, as: P.self, from: isolation, broadcaster: broadcaster, handling: handle, counting: &made,
                deliver)
        case .concurrent:
            try await deliverConcurrently(
                to: members, as: P.self, broadcaster: broadcaster, handling: handle, counting: &made, deliver)
        }
        return made
    }

    /// Calls `members` one after another, each run of consecutive members of
    /// one place in one hop there (1,000 main-actor listeners: one hop); the
    /// first error a call throws ends it.
    ///
    /// Counts the calls begun in `made`.
    private static func deliverSequentially<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall?,
        counting made: inout Int,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) {
        var start = members.startIndex
        while start < members.endIndex, !Task.isCancelled {
            let place = members[start].isolation ?? isolation
            var end = start + 1
            while end < members.endIndex, (members[end].isolation ?? isolation) === place { end += 1 }
            try await callRun(
                members[start..<end], as: P.self, on: place, broadcaster: broadcaster, handling: handle,
                counting: &made, deliver)
            start = end
        }
    }

    /// Calls each of `members` in its own child task, created in registration
    /// order; the first error thrown cancels the calls still running and
    /// stops those not begun (later errors are discarded).
    ///
    /// Counts the calls begun in `made`.
    private static func deliverConcurrently<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall?,
        counting made: inout Int,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) {
        var firstFailure: Failure?
        // Each child hands back the calls it began, and its error if one threw.
        await withTaskGroup(of: (made: Int, failure: Failure?).self) { group in
            for member in members {
                let added = group.addTaskUnlessCancelled {
                    var made = 0
                    do throws(Failure) {
                        try await callRun(
                            [member][...], as: P.self, on: member.isolation, broadcaster: broadcaster,
                            handling: handle, counting: &made, deliver)
                        return (made, nil)
                    } catch {
                        return (made, error)
                    }
                }
                if !added { break }
            }
            for await result in group {
                made += result.made
                guard let failure = result.failure, firstFailure == nil else { continue }
                firstFailure = failure
                group.cancelAll()
            }
        }
        if let firstFailure { throw firstFailure }
    }

    /// Calls `members` on `actor`, routing each there (where, in a task, a
    /// failed cast is definitive, recorded once the run ends); stops when the
    /// task is cancelled.
    ///
    /// Counts in `made` each call as it begins, so that the count holds when
    /// a call throws.
    static func callRun<P, Failure: Error>(
        _ members: ArraySlice<ListenerEntry>,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall? = nil,
        counting made: inout Int,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) {
        var context = DeliveryContext(isolation: actor)
        var answers = ActorAnswers()
        var learned: [LearnedNonconformance] = []
        defer { if !learned.isEmpty { broadcaster.record(learned, as: P.self) } }
        for entry in members {
            guard !Task.isCancelled else { break }
            guard let object = entry.liveObject else { continue }
            // An awaited post's handler, told by its entry as a post tells
            // its handlers: the run is where it is called (its actor, or the
            // post's for a `@Sendable` one).
            if let handle, entry.isHandler {
                guard let handler = awaitedHandler(of: entry) else { continue }
                made += 1
                await handle(handler)
                continue
            }
            var listener: P?
            let route = Routing.route(
                consume object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers
            ) { listener = $0 }
            // Each route means what it means for a synchronous delivery
            // (``Route``); a call that runs elsewhere is awaited there, not
            // scheduled.
            switch route {
            case .called:
                guard let listener = listener.take() else { break }
                made += 1
                try await deliver(listener)
            case .schedule(let actor):
                // A listener with no actor whose conformance the main actor
                // found isolated to it: the call runs there if it conforms there.
                try await callRun(
                    [entry][...], as: P.self, on: actor, broadcaster: broadcaster, handling: handle, counting: &made,
                    deliver)
            case .settleOnMainActor:
                // Made on the main actor if it conforms there, which settles
                // the listener: a `P` there and not here, its conformance is
                // isolated to the main actor. The caller awaits the call, so
                // it takes no room in ``UnsettledCallLimit``.
                let before = made
                try await callRun(
                    [entry][...], as: P.self, on: MainActor.shared, broadcaster: broadcaster, handling: handle,
                    counting: &made, deliver)
                if made > before { entry.noteConformanceIsolatedToMainActor(as: P.self) }
            case .skipAndRecord(let nonconformance):
                learned.append(nonconformance)
            case .skip:
                break
            }
        }
    }

    /// The awaited handler of `entry`.
    ///
    /// Loaded again, so that it shares no region with the listener a route
    /// sends; `P`'s index lists only the handlers of its post
    /// (``HandlerRouting/admits(_:of:as:knowing:in:learned:)``).
    private static func awaitedHandler(of entry: ListenerEntry) -> AwaitedEventHandler? {
        entry.liveObject as? AwaitedEventHandler
    }
}

/// An awaited post's call to one of its awaited handlers: typed, made by the
/// post that knows the event.
typealias AwaitedHandlerCall = nonisolated(nonsending) @Sendable (AwaitedEventHandler) async -> Void

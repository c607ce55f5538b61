/// The calls of an awaited broadcast, with no lock held: each call, and the
/// cast that produces its `P`, is made on the listener's actor if it has one,
/// so a conformance isolated to that actor is checked and used there only.
enum AwaitedDelivery {
    typealias Deliver<P, Failure: Error> =
        nonisolated(nonsending) @Sendable (sending P) async throws(Failure) -> Void

    /// Calls `members` one after another, each run of consecutive members of
    /// one place in one hop there (1,000 main-actor listeners: one hop); the
    /// first error a call throws ends it.
    static func deliverSequentially<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall? = nil,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) -> Int {
        var made = 0
        var start = members.startIndex
        while start < members.endIndex, !Task.isCancelled {
            let place = members[start].isolation ?? isolation
            var end = start + 1
            while end < members.endIndex, (members[end].isolation ?? isolation) === place { end += 1 }
            made += try await callRun(
                members[start..<end], as: P.self, on: place, broadcaster: broadcaster, handling: handle, deliver)
            start = end
        }
        return made
    }

    /// Calls each of `members` in its own child task, created in registration
    /// order; the first error thrown cancels the calls still running and
    /// stops those not begun (later errors are discarded).
    static func deliverConcurrently<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall? = nil,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) -> Int {
        var made = 0
        var firstFailure: Failure?
        await withTaskGroup(of: Result<Int, Failure>.self) { group in
            for member in members {
                let added = group.addTaskUnlessCancelled {
                    do throws(Failure) {
                        return .success(
                            try await callRun(
                                [member][...], as: P.self, on: member.isolation, broadcaster: broadcaster,
                                handling: handle, deliver))
                    } catch {
                        return .failure(error)
                    }
                }
                if !added { break }
            }
            for await result in group {
                switch result {
                case .success(let called):
                    made += called
                case .failure(let failure):
                    guard firstFailure == nil else { continue }
                    firstFailure = failure
                    group.cancelAll()
                }
            }
        }
        if let firstFailure { throw firstFailure }
        return made
    }

    /// Calls `members` on `actor`, routing each there (where, in a task, a
    /// failed cast is definitive, recorded once the run ends); stops when the
    /// task is cancelled.
    static func callRun<P, Failure: Error>(
        _ members: ArraySlice<ListenerEntry>,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
        handling handle: AwaitedHandlerCall? = nil,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) -> Int {
        var made = 0
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
                made += try await callRun(
                    [entry][...], as: P.self, on: actor, broadcaster: broadcaster, handling: handle, deliver)
            case .settleOnMainActor:
                // Made on the main actor if it conforms there, which settles
                // the listener: a `P` there and not here, its conformance is
                // isolated to the main actor. The caller awaits the call, so
                // it takes no room in ``UnsettledCallLimit``.
                let calledThere = try await callRun(
                    [entry][...], as: P.self, on: MainActor.shared, broadcaster: broadcaster, handling: handle, deliver)
                if calledThere > 0 { entry.noteConformanceIsolatedToMainActor(as: P.self) }
                made += calledThere
            case .skipAndRecord(let nonconformance):
                learned.append(nonconformance)
            case .skip:
                break
            }
        }
        return made
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

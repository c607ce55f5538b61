/// The calls of an awaited broadcast: one pass over a snapshot of an index's
/// members, awaiting each listener's asynchronous call.
///
/// Runs with no lock held, so a listener may add, remove or broadcast while
/// it is suspended. Every call, and the cast that produces its `P`, is made
/// on the listener's actor if it registered on one (else where the broadcast
/// runs), so a conformance isolated to that actor is only ever checked and
/// used there. Before each call it re-checks that the broadcasting task is
/// not cancelled, the entry still registered and its listener alive.
enum AwaitedDelivery {
    /// The typed call of an awaited broadcast.
    typealias Deliver<P, Failure: Error> =
        nonisolated(nonsending) @Sendable (sending P) async throws(Failure) -> Void

    /// Calls `members` one after another, in registration order.
    ///
    /// A run of consecutive members called in the same place (the same
    /// actor, or where the broadcast runs for members with none) is called
    /// in one hop there: a broadcast from a background task to 1,000
    /// main-actor listeners hops to the main actor once, not 1,000 times.
    ///
    /// - Returns: The number of calls made.
    /// - Throws: The first error a call throws; the later members are not
    ///   called.
    static func deliverSequentially<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: @escaping Deliver<P, Failure>
    ) async throws(Failure) -> Int {
        var made = 0
        var start = members.startIndex
        while start < members.endIndex, !Task.isCancelled {
            let place = members[start].isolation ?? isolation
            var end = start + 1
            while end < members.endIndex, (members[end].isolation ?? isolation) === place { end += 1 }
            made += try await callRun(members[start..<end], as: P.self, on: place, broadcaster: broadcaster, deliver)
            start = end
        }
        return made
    }

    /// Calls each of `members` in its own child task, created in
    /// registration order, and returns once every call has returned.
    ///
    /// A listener with no actor is called off any actor (on the global
    /// concurrent executor), so calls can run in parallel.
    ///
    /// - Returns: The number of calls made.
    /// - Throws: The first error a call throws (the first to be thrown, not
    ///   the first member's); it cancels the calls still running, which see
    ///   the cancellation, and stops the calls not yet begun. Errors thrown
    ///   after it are discarded.
    static func deliverConcurrently<P, Failure: Error>(
        to members: [ListenerEntry],
        as _: P.Type,
        broadcaster: Broadcaster,
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
                                [member][...], as: P.self, on: member.isolation, broadcaster: broadcaster, deliver))
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

    /// Calls `members`, one after another, as `P` on `actor`: the
    /// listeners' own actor, or, for listeners with none, where the
    /// broadcast puts them.
    ///
    /// Before each call: stops if the task is cancelled, skips the member if
    /// its entry is retired or its listener released, and routes it here
    /// (``Routing``): on its own actor, in a task, a failed cast is
    /// definitive, and is recorded once the run ends.
    ///
    /// - Returns: The number of calls made.
    static func callRun<P, Failure: Error>(
        _ members: ArraySlice<ListenerEntry>,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
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
            var listener: P?
            let route = Routing.route(
                consume object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers
            ) { listener = $0 }
            switch route {
            case .called:
                guard let listener = listener.take() else { break }
                made += 1
                try await deliver(listener)
            case .skipAndRecord(let nonconformance):
                learned.append(nonconformance)
            case .schedule, .skip:
                // The run is on the listener's actor: nothing to send on.
                break
            }
        }
        return made
    }
}

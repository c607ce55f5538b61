/// The calls of an awaited broadcast: one pass over a snapshot of an index's
/// members, awaiting each listener's asynchronous call.
///
/// Runs with no lock held, so a listener may add, remove or broadcast while
/// it is suspended. Every call, and the cast that produces its `P`, is made
/// on the listener's actor if it registered on one, so a conformance
/// isolated to that actor (`extension Screen: @MainActor P`) is only ever
/// checked and used there (``DeliveryContext``). Before each call it
/// re-checks that the broadcasting task is not cancelled, the entry still
/// registered and its listener alive.
enum AwaitedDelivery {
    /// Calls `members` one after another, in registration order.
    ///
    /// - Parameters:
    ///   - members: A snapshot of the index, in registration order.
    ///   - listenerType: The protocol the members are delivered as.
    ///   - isolation: Where the broadcast runs; listeners with no actor are
    ///     called here.
    ///   - broadcaster: Told about a listener found, on its actor, not to
    ///     conform.
    ///   - deliver: Makes the typed call.
    /// - Returns: The number of calls made.
    /// - Throws: The first error a call throws; the later members are not
    ///   called.
    static func deliverSequentially<P, Failure: Error>(
        to members: [IndexMember],
        as listenerType: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var made = 0
        var start = members.startIndex
        while start < members.endIndex, !Task.isCancelled {
            // The run of members called in the same place goes there in one
            // hop: a broadcast from a background task to 1,000 main-actor
            // listeners hops to the main actor once, not 1,000 times.
            let place = members[start].entry.isolation ?? isolation
            var end = start + 1
            while end < members.endIndex, (members[end].entry.isolation ?? isolation) === place { end += 1 }
            made += try await callInOrder(
                members[start..<end], as: P.self, on: place, broadcaster: broadcaster, deliver)
            start = end
        }
        return made
    }

    /// Calls `members`, all to be called on `actor`, one after another there.
    ///
    /// - Returns: The number of calls made.
    private static func callInOrder<P, Failure: Error>(
        _ members: ArraySlice<IndexMember>,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var made = 0
        for member in members {
            if try await call(member, as: P.self, on: actor, broadcaster: broadcaster, deliver) { made += 1 }
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
        to members: [IndexMember],
        as listenerType: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var made = 0
        var firstFailure: Failure?
        await withTaskGroup(of: Result<Bool, Failure>.self) { group in
            for member in members {
                let added = group.addTaskUnlessCancelled {
                    do throws(Failure) {
                        let place = member.entry.isolation
                        return .success(
                            try await call(member, as: P.self, on: place, broadcaster: broadcaster, deliver))
                    } catch {
                        return .failure(error)
                    }
                }
                if !added { break }
            }
            for await result in group {
                switch result {
                case .success(let called):
                    if called { made += 1 }
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

    /// Calls `member` as a `P` on `actor`, unless the broadcasting task is
    /// cancelled, the entry retired or its listener released; returns
    /// whether it was called.
    ///
    /// `actor` is the listener's own actor, or for a listener with none
    /// where the broadcast puts it. The cast (or the class's projection) is
    /// taken here, on `actor`, where ``DeliveryContext`` can tell whether a
    /// failed cast is definitive; a definitive failure is recorded so that
    /// later broadcasts leave the listener out.
    private static func call<P, Failure: Error>(
        _ member: IndexMember,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Bool {
        guard !Task.isCancelled, let object = member.entry.liveObject else { return false }
        var place = DeliveryPlace(isolation: actor)
        var cast: P?
        guard member.withListener(object, as: P.self, in: &place, { cast = $0 }), let listener = cast else {
            if let listenerActor = member.entry.isolation, place.castsAreDefinitive(on: listenerActor) {
                broadcaster.recordNonconformance(of: type(of: object), to: P.self)
            }
            return false
        }
        try await deliver(listener)
        return true
    }
}

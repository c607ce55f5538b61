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
///
/// Inlinable, for the reason given at ``Delivery``: compiled for each
/// broadcast's `P` where the broadcast is written (unspecialized, it cost
/// 7.6× a hand-written await loop instead of 4.4×; `Docs/Benchmarks.md`,
/// "Awaited broadcasts"). The same rule holds: nothing here casts; the casts stay in
/// ``IndexMember/castAndCall(_:as:_:)``, and what is learned goes through
/// ``AwaitedLearning``, which is not inlinable.
@usableFromInline
enum AwaitedDelivery {
    /// Calls `members` one after another, in registration order.
    ///
    /// - Parameters:
    ///   - members: A snapshot of the index, in registration order.
    ///   - listenerType: The protocol the members are delivered as.
    ///   - isolation: Where the broadcast runs; listeners with no actor are
    ///     called here.
    ///   - broadcaster: Told what the calls learned about conformances.
    ///   - deliver: Makes the typed call.
    /// - Returns: The number of calls made.
    /// - Throws: The first error a call throws; the later members are not
    ///   called.
    @inlinable
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
    @inlinable
    static func deliverConcurrently<P, Failure: Error>(
        to members: [IndexMember],
        as listenerType: P.Type,
        from isolation: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var made = 0
        var firstFailure: Failure?
        await withTaskGroup(of: Result<Int, Failure>.self) { group in
            for index in members.indices {
                let added = group.addTaskUnlessCancelled {
                    do throws(Failure) {
                        let place = members[index].entry.isolation
                        return .success(
                            try await callInOrder(
                                members[index...index], as: P.self, on: place, broadcaster: broadcaster, deliver))
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
    /// listeners' own actor, or for listeners with none where the broadcast
    /// puts them.
    ///
    /// Before each call: stops if the broadcasting task is cancelled, skips
    /// the member if its entry is retired or its listener released. The
    /// listener's `P` comes from its class's projection (or a cast) made
    /// here, on `actor`, where ``DeliveryContext`` can tell whether a failed
    /// cast is definitive.
    ///
    /// - Returns: The number of calls made.
    @inlinable
    static func callInOrder<P, Failure: Error>(
        _ members: ArraySlice<IndexMember>,
        as _: P.Type,
        on actor: isolated (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        try await callEach(members, as: P.self, on: actor, broadcaster: broadcaster, deliver)
    }

    /// The loop of ``callInOrder(_:as:on:broadcaster:_:)``, run where its
    /// caller runs, which is on `actor`.
    ///
    /// `nonisolated(nonsending)`, as `deliver` is: each call of `deliver`
    /// returns where it was made, so the loop goes on without a hop back to
    /// `actor` after every call (isolated to `actor` by a parameter, the loop
    /// switched executors once more per call than a hand-written loop
    /// through the same closure).
    @inlinable
    nonisolated(nonsending) static func callEach<P, Failure: Error>(
        _ members: ArraySlice<IndexMember>,
        as _: P.Type,
        on actor: (any Actor)?,
        broadcaster: Broadcaster,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var made = 0
        var learning = AwaitedLearning()
        defer { learning.finish(in: broadcaster, as: P.self) }
        // Asked once per run: the run is isolated to `actor` from start to
        // end, so on the main actor every call is made on the main queue.
        let onMainActor = actor.map { $0 === MainActor.shared } ?? false
        for index in members.indices {
            guard !Task.isCancelled else { break }
            guard
                let listener = listener(
                    at: index, of: members, as: P.self, on: actor, onMainActor: onMainActor, learning: &learning)
            else { continue }
            made += 1
            // Handed over, not copied: without `consume` the loop kept its
            // own reference across the call, a retain and a release (on
            // the listener's side table) per call.
            try await deliver(consume listener)
        }
        return made
    }

    /// The listener of `members[index]` as a `P` where the call is made
    /// (`actor`), or nil if its entry is retired, its listener released, or
    /// it is not a `P` there (which `learning` records if that is
    /// definitive).
    ///
    /// The member is read in place, not copied out of the snapshot (which
    /// the broadcast keeps alive): a copy retained and released its entry
    /// and its projection, four atomic operations per call.
    ///
    /// The result is `sending`: nothing here keeps it, so the loop may send
    /// it to `deliver`. (Done inline in the loop, the compiler's region
    /// analysis could not tell one iteration's listener from the next.)
    ///
    /// A member whose projection holds here (valid anywhere, or valid on
    /// the main queue and the run on the main actor) takes the fast path:
    /// the `P` is made from the projection's bits and owns the reference the
    /// weak load returned, with no place to ask and no further retain.
    @inlinable
    static func listener<P>(
        at index: Int,
        of members: ArraySlice<IndexMember>,
        as _: P.Type,
        on actor: (any Actor)?,
        onMainActor: Bool,
        learning: inout AwaitedLearning
    ) -> sending P? {
        let entry = Unmanaged.passUnretained(members[index].entry)
        guard let object = entry._withUnsafeGuaranteedRef({ $0.liveObject }) else { return nil }
        if let projection = members[index].projection.map({ Unmanaged.passUnretained($0) }) {
            let (validity, words) = projection._withUnsafeGuaranteedRef { ($0.validity, $0.words) }
            switch validity {
            case .anywhere:
                return CastProjection.listener(owning: consume object, words: words, as: P.self)
            case .onMainQueueOnly where onMainActor:
                return CastProjection.listener(owning: consume object, words: words, as: P.self)
            case .onMainQueueOnly:
                break
            }
        }
        let member = members[index]
        var place = DeliveryPlace(awaitingOn: actor)
        var cast: P?
        guard member.withListener(object, as: P.self, in: &place, { cast = $0 }), let listener = cast else {
            learning.castFailed(for: type(of: object), of: member.entry, in: &place)
            return nil
        }
        if member.projection == nil, place.isOnMainQueue {
            // Only the projection (a `Sendable` value) is kept.
            learning.keep(AwaitedLearning.projection(of: listener, object))
        }
        return listener
    }
}

/// What the calls of one run of an awaited broadcast learn, handed to the
/// broadcaster's index when the run ends: listeners found, definitively, not
/// to conform, and projections for members cast on the main queue (which,
/// registered on the main actor and indexed by a broadcast elsewhere, had
/// none), as scheduled calls teach them (``LearnedProjections``).
///
/// Not inlinable: it casts nothing, but it keeps what casts found, which
/// stays in the library (see ``Delivery``).
@usableFromInline
struct AwaitedLearning: Sendable {
    private var learned = LearnedProjections()
    private var nonconforming: [AnyObject.Type] = []

    @usableFromInline
    init() {}

    /// Notes that the listener of `entry`, of class `objectType`, is not a
    /// `P` where the run is: recorded if that is definitive there.
    @usableFromInline
    mutating func castFailed(for objectType: AnyObject.Type, of entry: ListenerEntry, in place: inout DeliveryPlace) {
        guard let listenerActor = entry.isolation, place.castsAreDefinitive(on: listenerActor) else { return }
        nonconforming.append(objectType)
    }

    /// The projection of `listener`, cast from `object` on the main queue,
    /// with its class; nil if its bits cannot be kept.
    @usableFromInline
    static func projection<P>(of listener: P, _ object: AnyObject) -> (ObjectIdentifier, CastProjection)? {
        CastProjection.make(listener, of: object, madeOnMainQueue: true).map {
            (ObjectIdentifier(type(of: object)), $0)
        }
    }

    /// Keeps `learned`, a projection for a class, for the index.
    @usableFromInline
    mutating func keep(_ learned: (ObjectIdentifier, CastProjection)?) {
        guard let (objectType, projection) = learned else { return }
        self.learned.keep(projection, of: objectType)
    }

    /// Records what was learned, under the broadcaster's lock, once per run.
    @usableFromInline
    func finish<P>(in broadcaster: Broadcaster, as _: P.Type) {
        for type in nonconforming { broadcaster.recordNonconformance(of: type, to: P.self) }
        if !learned.isEmpty { broadcaster.storage.withLock { $0.adopt(learned, to: P.self) } }
    }
}

extension DeliveryPlace {
    /// A place for the calls of an awaited broadcast made on `actor`.
    @usableFromInline
    init(awaitingOn actor: (any Actor)?) {
        self.init(isolation: actor)
    }
}

/// The calls themselves: one pass over a snapshot of an index's members.
///
/// Runs with no lock held. Before each call it re-checks that the entry is
/// still registered and its listener alive, which is what makes a removal or
/// release during a broadcast take effect for the rest of that broadcast.
///
/// `deliver` is inlinable, so that a broadcast's loop is compiled for its
/// `P` in the module that broadcasts: unspecialized, the loop paid value
/// witnesses, closure thunks and metadata for every member (about 180
/// instructions per delivery; callgrind, Docs/PerformanceNotes.md). It must
/// never contain a conformance cast (`as? P`, `is P`), nor may anything it
/// inlines: the runtime checks a conformance isolated to a global actor
/// (`extension Screen: @MainActor P`) only in the generic cast, and a cast
/// specialized to a concrete protocol was measured to succeed off that actor.
/// The casts stay in ``IndexMember/castAndCall(_:as:_:)`` and
/// ``ConformanceIndex``, which are not inlinable, and the questions about
/// where the broadcast runs stay in ``DeliveryContext``, asked through
/// ``DeliveryPlace``.
@usableFromInline
enum Delivery {
    /// Calls every member that can be called where the broadcast runs, and
    /// collects the others into `scheduled`, grouped by their actor.
    ///
    /// - Parameters:
    ///   - members: A snapshot of the index, in registration order.
    ///   - listenerType: The protocol the members are delivered as.
    ///   - place: Where the broadcast runs.
    ///   - actorOverride: An actor every member must be called on
    ///     (``Broadcaster/broadcastOnMainActor(to:sticky:isolation:_:)``),
    ///     replacing the isolation each registered with.
    ///   - scheduled: Collects the members to call on their actors.
    ///   - nonconforming: Told about a listener found, definitively, not to
    ///     conform (one that was only tentatively in the index).
    ///   - call: Makes the typed call.
    /// - Returns: The number of calls made or scheduled.
    @inlinable
    static func deliver<P>(
        to members: [IndexMember],
        as listenerType: P.Type,
        place: inout DeliveryPlace,
        actorOverride: (any Actor)?,
        scheduled: inout ScheduledDeliveries,
        nonconforming: (AnyObject.Type) -> Void,
        _ call: (P) -> Void
    ) -> Int {
        var count = 0
        // Members and entries are borrowed from the snapshot, which the
        // caller keeps alive: copying each member out of the array retained
        // and released its entry (65 instructions per delivery).
        members.withUnsafeBufferPointer { members in
            // A local of this closure, not of the function: captured from
            // the function by both closures, it kept the app's typed method,
            // which holds this loop, from being inlined where it is called
            // (callgrind, Docs/PerformanceNotes.md).
            var answers = PlaceAnswers()
            for index in members.indices {
                let projection = members[index].projection.map { Unmanaged.passUnretained($0) }
                Unmanaged.passUnretained(members[index].entry)._withUnsafeGuaranteedRef { entry in
                    guard let object = entry.liveObject else { return }
                    let runsHere: Bool
                    if let actorOverride {
                        runsHere = answers.isRunning(onOverride: actorOverride, in: &place)
                    } else if let box = entry.isolationBox.map({ Unmanaged.passUnretained($0) }) {
                        runsHere = answers.isRunning(on: box, in: &place)
                    } else {
                        if IndexMember.withListener(
                            object, projection: projection, as: P.self, in: &place, answers: &answers, call)
                        {
                            count += 1
                        }
                        return
                    }
                    if !runsHere {
                        scheduled.append(entry, on: actorOverride ?? entry.isolation.unsafelyUnwrapped)
                        count += 1
                    } else if IndexMember.withListener(
                        object, projection: projection, as: P.self, in: &place, answers: &answers, call)
                    {
                        count += 1
                    } else {
                        let actor = actorOverride ?? entry.isolation.unsafelyUnwrapped
                        if place.castsAreDefinitive(on: actor) {
                            nonconforming(type(of: object))
                        } else {
                            scheduled.appendUnsettled(entry, on: actor)
                            count += 1
                        }
                    }
                }
            }
        }
        return count
    }

    /// Runs a scheduled batch on its actor.
    ///
    /// `learned`, if not nil, keeps the projection of each listener class
    /// whose cast succeeded. Every cast here is definitive, so
    /// a listener that turns out not to conform is reported through
    /// `nonconforming` (and is not called).
    static func deliverScheduled<P>(
        _ entries: [ListenerEntry],
        as _: P.Type,
        nonconforming: (AnyObject.Type) -> Void,
        learning learned: inout LearnedProjections?,
        _ call: (P) -> Void
    ) {
        for entry in entries {
            guard let object = entry.liveObject else { continue }
            if let listener = object as? P {
                learned?.note(listener, of: object)
                call(listener)
            } else {
                nonconforming(type(of: object))
            }
        }
    }
}

/// The deliveries a broadcast could not make where it ran, grouped by the
/// actor they must run on, each group in registration order.
@usableFromInline
struct ScheduledDeliveries {
    @usableFromInline
    struct Batch {
        let actor: any Actor
        var entries: [ListenerEntry]
        /// Whether an entry is here because the broadcast ran on the actor
        /// but could not check the listener's conformance there (a
        /// main-queue block off the main thread): the scheduled call, which
        /// can, then teaches the index the listener class's projection, so
        /// later broadcasts there call it at once.
        var teachesProjections = false
    }

    @usableFromInline private(set) var batches: [Batch]

    @inlinable
    init() { batches = [] }

    @inlinable
    var isEmpty: Bool { batches.isEmpty }

    @usableFromInline
    mutating func append(_ entry: ListenerEntry, on actor: any Actor) {
        batches[batch(for: actor)].entries.append(entry)
    }

    /// Appends an entry whose conformance could not be checked where the
    /// broadcast runs, although it runs on the entry's actor.
    ///
    /// Only the main actor's batch learns from it: a projection made there
    /// is valid on the main queue, where such a broadcast runs again.
    @usableFromInline
    mutating func appendUnsettled(_ entry: ListenerEntry, on actor: any Actor) {
        let index = batch(for: actor)
        batches[index].entries.append(entry)
        if actor === MainActor.shared { batches[index].teachesProjections = true }
    }

    /// The position of `actor`'s batch, made if missing.
    private mutating func batch(for actor: any Actor) -> Int {
        // Few distinct actors (usually only the main actor): a linear search
        // beats hashing.
        if let index = batches.firstIndex(where: { $0.actor === actor }) { return index }
        batches.append(Batch(actor: actor, entries: []))
        return batches.count - 1
    }
}

/// Where a broadcast runs, as the inlinable delivery loop sees it: a
/// ``DeliveryContext`` whose questions are answered in the library, not
/// inlined, so that what is called here and what is scheduled stays decided
/// in one place.
@usableFromInline
struct DeliveryPlace {
    var context: DeliveryContext

    init(isolation: (any Actor)?) {
        context = DeliveryContext(isolation: isolation)
    }

    init(context: DeliveryContext) {
        self.context = context
    }

    /// See ``DeliveryContext/isRunning(on:)``.
    @usableFromInline
    mutating func isRunning(on actor: any Actor) -> Bool {
        context.isRunning(on: actor)
    }

    /// ``isRunning(on:)`` for the actor in `box`.
    @usableFromInline
    mutating func isRunning(onActorOf box: Unmanaged<IsolationBox>) -> Bool {
        box._withUnsafeGuaranteedRef { context.isRunning(on: $0.actor) }
    }

    /// See ``DeliveryContext/castsAreDefinitive(on:)``.
    @usableFromInline
    mutating func castsAreDefinitive(on actor: any Actor) -> Bool {
        context.castsAreDefinitive(on: actor)
    }

    /// See ``DeliveryContext/isOnMainQueue``.
    @usableFromInline
    var isOnMainQueue: Bool {
        mutating get { context.isOnMainQueue }
    }
}

/// The answers the delivery loop got from its ``DeliveryPlace`` during one
/// broadcast, kept in the loop so that it asks the library once per
/// broadcast, not once per member: asked per member (calls into the
/// library), the questions cost about 90 instructions per delivery to a
/// listener registered on an actor, and 18 per delivery to one whose
/// projection is valid on the main queue only (callgrind,
/// Docs/PerformanceNotes.md).
///
/// The answers are the library's; only kept here. None can change during a
/// broadcast: they depend on the broadcast's isolation and thread. A local
/// of the loop, not a field of `DeliveryPlace`: a larger place was copied
/// and destroyed through its value witnesses on every broadcast.
@usableFromInline
struct PlaceAnswers {
    /// The answers in one word, so that the loop keeps them in a register.
    ///
    /// Bits 3 and up: the address of the object asked about last (an
    /// entry's isolation box, or the override actor; objects are 8-byte
    /// aligned); bit 2, its answer; bit 0, whether the main-queue question
    /// was asked, and bit 1 its answer. Members registered on one
    /// actor share one box (every main-actor listener the same), so a run of
    /// them asks once. The snapshot keeps each box alive, and the caller the
    /// override actor, so an address is not reused during the broadcast.
    @usableFromInline var word: UInt = 0

    @inlinable
    init() {}

    /// ``DeliveryPlace/isRunning(onActorOf:)``, asked once per run of
    /// members with the same box.
    @inlinable
    mutating func isRunning(on box: Unmanaged<IsolationBox>, in place: inout DeliveryPlace) -> Bool {
        let address = UInt(bitPattern: box.toOpaque())
        if word & ~0x7 == address { return word & 0x4 != 0 }
        let answer = place.isRunning(onActorOf: box)
        word = address | (answer ? 0x4 : 0) | (word & 0x3)
        return answer
    }

    /// ``DeliveryPlace/isRunning(on:)`` for the override actor, asked once.
    @inlinable
    mutating func isRunning(onOverride actor: any Actor, in place: inout DeliveryPlace) -> Bool {
        let address = UInt(bitPattern: Unmanaged.passUnretained(actor as AnyObject).toOpaque())
        if word & ~0x7 == address { return word & 0x4 != 0 }
        let answer = place.isRunning(on: actor)
        word = address | (answer ? 0x4 : 0) | (word & 0x3)
        return answer
    }

    /// ``DeliveryPlace/isOnMainQueue``, asked once.
    @inlinable
    mutating func isOnMainQueue(in place: inout DeliveryPlace) -> Bool {
        if word & 0x1 == 0 { word |= place.isOnMainQueue ? 0x3 : 0x1 }
        return word & 0x2 != 0
    }
}

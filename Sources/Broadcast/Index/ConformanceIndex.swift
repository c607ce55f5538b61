/// The listeners of one protocol `P`, in registration order: what a broadcast
/// to `P` iterates, so that its cost follows the listeners that match, not
/// every listener in the table.
///
/// Built on the first broadcast to `P` (one cast per listener class), then
/// kept in step incrementally: the entries added since it was last used are
/// taken in when it is next used (`takeIn`), a removed one is only counted,
/// and the member list is filtered once the removals counted since the last
/// filter reach half its length (amortized O(1) per removal).
/// Anything that breaks the incremental invariants (a compaction, an object
/// with two entries, a conformance learned on an actor) simply drops the index
/// so the next broadcast rebuilds it.
///
/// Mutated only under the ``Broadcaster``'s lock; `members` is a value, so a
/// broadcast takes a copy under the lock and iterates it after.
final class ConformanceIndex<P>: IndexMembers, AnyConformanceIndex {
    /// Entries that may be members and were retired since the last filter
    /// (counted without checking membership: an over-count only filters
    /// sooner).
    private var retiredSinceFilter = 0
    /// The projection a cast made for each listener class, reused for the
    /// class's other instances: a conformance depends on the class, and the
    /// runtime's lookup was half of an add (callgrind,
    /// Docs/PerformanceNotes.md). Only casts that a cast elsewhere would
    /// repeat are kept (see `remember(_:of:in:)`).
    // Unchecked for the same reason as `members`.
    @exclusivity(unchecked) private var projections: [ObjectIdentifier: CastProjection] = [:]
    /// The class looked up last in `projections` and its projection, checked
    /// first: registrations come in runs of one class.
    @exclusivity(unchecked) private var lastProjection: (type: ObjectIdentifier, projection: CastProjection)?

    /// Builds the index from the table's live entries, casting in `context`.
    ///
    /// An object with two entries (an `addListener` and a single-protocol
    /// registration) becomes one member, at its first entry's position.
    init(entries: [ListenerEntry?], cache: inout ConformanceCache, in context: inout DeliveryContext) {
        super.init()
        var admittedObjects: Set<ObjectIdentifier> = []
        for case let entry? in entries {
            guard let object = entry.liveObject,
                let member = member(for: entry, object: object, cache: &cache, in: &context)
            else { continue }
            if admittedObjects.insert(entry.id).inserted { members.append(member) }
        }
        seenEntries = entries.count
    }

    /// Adds the entries appended to the table since this index last saw it,
    /// those whose listener conforms, casting in `context`.
    ///
    /// `entries` is the table's, in which this index has seen the first
    /// `seenEntries`: appending is the only change the table makes without
    /// dropping the indexes (a compaction, or an object gaining a second
    /// entry, drops them), so the new entries are the tail, and none of their
    /// objects is already a member.
    func takeIn(_ entries: [ListenerEntry?], cache: inout ConformanceCache, in context: inout DeliveryContext) {
        guard seenEntries < entries.count else { return }
        for position in seenEntries..<entries.count {
            guard let entry = entries[position], let object = entry.liveObject,
                let member = member(for: entry, object: object, cache: &cache, in: &context)
            else { continue }
            members.append(member)
        }
        seenEntries = entries.count
    }

    /// The members ``takeIn(_:cache:in:)`` would leave, without changing
    /// this index (for diagnostics).
    func membersTakingIn(
        _ entries: [ListenerEntry?], cache: inout ConformanceCache, in context: inout DeliveryContext
    ) -> [IndexMember] {
        guard seenEntries < entries.count else { return members }
        var members = self.members
        for position in seenEntries..<entries.count {
            guard let entry = entries[position], let object = entry.liveObject,
                let member = member(for: entry, object: object, cache: &cache, in: &context, remembering: false)
            else { continue }
            members.append(member)
        }
        return members
    }

    /// Gives the members of each learned class that have no projection the
    /// class's projection, and keeps it for the class's later members.
    ///
    /// Runs once per class: afterwards its members have a projection and
    /// are no longer scheduled for want of one.
    func adopt(_ learned: LearnedProjections) {
        for (objectType, projection) in learned.projections {
            keep(projection, of: objectType)
            for position in members.indices where members[position].projection == nil {
                guard let object = members[position].entry.object, ObjectIdentifier(type(of: object)) == objectType
                else { continue }
                members[position] = IndexMember(entry: members[position].entry, projection: projection)
            }
        }
    }

    /// Records whether `object`'s class conforms to `P`, unless known; the
    /// caller has made sure a failed cast is definitive where this runs.
    func settleConformance(of object: AnyObject, cache: inout ConformanceCache) {
        let objectType: AnyObject.Type = type(of: object)
        guard cache.conforms(objectType, to: P.self) == nil else { return }
        cache.record(objectType, conformsTo: P.self, IndexMember.castAndCall(object, as: P.self) { _ in })
    }

    func noteRetired(_ entry: ListenerEntry) {
        guard entry.listens(to: ObjectIdentifier(P.self)) else { return }
        retiredSinceFilter += 1
        if retiredSinceFilter * 2 > members.count {
            members.removeAll { $0.entry.isRetired || $0.entry.object == nil }
            retiredSinceFilter = 0
        }
    }

    /// The member `entry` makes, or nil if its listener does not conform.
    ///
    /// `object` is `entry`'s listener, held strongly by the caller.
    ///
    /// With `remembering` false, nothing about the cast is kept in the index
    /// (the caller may still keep answers in `cache`, its own copy or not).
    private func member(
        for entry: ListenerEntry, object: AnyObject, cache: inout ConformanceCache, in context: inout DeliveryContext,
        remembering: Bool = true
    ) -> IndexMember? {
        guard entry.listens(to: ObjectIdentifier(P.self)), !entry.isRetired else { return nil }
        let objectType = ObjectIdentifier(type(of: object))
        // A projection made on the main queue is reused only there, where
        // the cast it stands for was made (and the member keeps that
        // validity); one valid anywhere, anywhere.
        if let known = knownProjection(of: objectType), known.validity == .anywhere || context.isOnMainQueue {
            return IndexMember(entry: entry, projection: known)
        }
        switch Self.cast(object, in: &context) {
        case .conforms(let projection?):
            if remembering { remember(projection, of: objectType, in: &context) }
            return IndexMember(entry: entry, projection: projection)
        case .conforms(nil):
            return IndexMember(entry: entry, projection: nil)
        case .doesNotConformHere:
            if Self.mayConformOnItsActor(object, of: entry, cache: &cache, in: &context) {
                return IndexMember(entry: entry, projection: nil)
            }
            return nil
        }
    }

    /// What a cast found.
    private enum CastResult {
        /// The listener conforms; its projection, if its cast result can be
        /// kept.
        case conforms(CastProjection?)
        case doesNotConformHere
    }

    /// Casts `object` to `P` here; nil if it does not conform here.
    ///
    /// Out of line for the reason given at ``IndexMember/castAndCall(_:as:_:)``
    /// (the `P?` of the cast would cost its metadata on every add, even when
    /// the cast is skipped).
    @inline(never)
    private static func cast(_ object: AnyObject, in context: inout DeliveryContext) -> CastResult {
        guard let listener = object as? P else { return .doesNotConformHere }
        return .conforms(CastProjection.make(listener, of: object, madeOnMainQueue: context.isOnMainQueue))
    }

    /// Keeps `projection` for reuse by the class's other instances, if a cast
    /// made wherever it is reused would succeed too.
    ///
    /// A cast made on the main queue is reused only on the main queue. One
    /// made elsewhere outside any task cannot have used a conformance
    /// isolated to a global actor (the runtime proves such an actor only
    /// inside its tasks, or on the main thread for the main actor), so it
    /// holds anywhere. One made in a task elsewhere may have used a
    /// conformance isolated to that task's actor, so it is not kept.
    private func remember(
        _ projection: CastProjection, of objectType: ObjectIdentifier, in context: inout DeliveryContext
    ) {
        switch projection.validity {
        case .onMainQueueOnly:
            break
        case .anywhere:
            guard !context.isInTask else { return }
        }
        keep(projection, of: objectType)
    }

    /// Reuses `projection` for the class's later members.
    private func keep(_ projection: CastProjection, of objectType: ObjectIdentifier) {
        projections[objectType] = projection
        lastProjection = (objectType, projection)
    }

    private func knownProjection(of objectType: ObjectIdentifier) -> CastProjection? {
        if let lastProjection, lastProjection.type == objectType { return lastProjection.projection }
        guard let projection = projections[objectType] else { return nil }
        lastProjection = (objectType, projection)
        return projection
    }

    /// Whether `object`, which failed the cast here, may still conform.
    ///
    /// A cast that succeeds is definitive. A cast that fails is definitive for
    /// a listener with no actor, but not for one registered on an actor: a
    /// conformance isolated to that actor (`extension Screen: @MainActor P`)
    /// makes the generic cast fail anywhere else. Such a listener stays in the
    /// index until a delivery on its actor settles the question (recorded in
    /// the ``ConformanceCache``).
    private static func mayConformOnItsActor(
        _ object: AnyObject, of entry: ListenerEntry, cache: inout ConformanceCache, in context: inout DeliveryContext
    ) -> Bool {
        guard let actor = entry.isolation else { return false }
        if context.castsAreDefinitive(on: actor) {
            cache.record(type(of: object), conformsTo: P.self, false)
            return false
        }
        return cache.conforms(type(of: object), to: P.self) ?? true
    }
}

/// One listener of an index, with the cast to the index's protocol made once.
@usableFromInline
struct IndexMember: Sendable {
    @usableFromInline let entry: ListenerEntry
    /// Shared by the members of one class; nil when the listener must be
    /// cast on every delivery.
    @usableFromInline let projection: CastProjection?

    /// Calls `body` with the listener as a `P`, for a delivery made in
    /// `place`; returns false, without calling, if it is not a `P` here.
    ///
    /// `object` is the strong reference the caller just loaded from `entry`.
    ///
    /// Inlinable (see ``Delivery``): it must not cast; a member without a
    /// projection valid here goes through `castAndCall`, which is not.
    @inlinable
    func withListener<P>(_ object: AnyObject, as _: P.Type, in place: inout DeliveryPlace, _ body: (P) -> Void)
        -> Bool
    {
        var answers = PlaceAnswers()
        return Self.withListener(
            object, projection: projection.map { Unmanaged.passUnretained($0) }, as: P.self, in: &place,
            answers: &answers, body)
    }

    /// ``withListener(_:as:in:_:)`` for the delivery loop.
    ///
    /// The loop reads `projection` from its borrowed snapshot without
    /// retaining it (the snapshot keeps it alive): held as a reference across
    /// the opaque main-queue check, it was retained and released on every
    /// delivery. `answers` keeps the place's answers for the rest of the
    /// broadcast.
    @inlinable
    static func withListener<P>(
        _ object: AnyObject, projection: Unmanaged<CastProjection>?, as _: P.Type, in place: inout DeliveryPlace,
        answers: inout PlaceAnswers, _ body: (P) -> Void
    ) -> Bool {
        guard let projection else { return castAndCall(object, as: P.self, body) }
        let (validity, words) = projection._withUnsafeGuaranteedRef { ($0.validity, $0.words) }
        switch validity {
        case .anywhere:
            break
        case .onMainQueueOnly where answers.isOnMainQueue(in: &place):
            break
        case .onMainQueueOnly:
            return castAndCall(object, as: P.self, body)
        }
        CastProjection.withListener(object, words: words, as: P.self, body)
        // The projection holds no reference: keep the listener alive until
        // the call has returned. `_fixLifetime` is always inlined, where
        // `extendLifetime`, generic, was called out of line once the loop
        // grew (callgrind: 12 instructions per delivery).
        _fixLifetime(object)
        return true
    }

    /// The same, for code that holds a ``DeliveryContext``.
    func withListener<P>(_ object: AnyObject, as _: P.Type, in context: inout DeliveryContext, _ body: (P) -> Void)
        -> Bool
    {
        var place = DeliveryPlace(context: context)
        defer { context = place.context }
        return withListener(object, as: P.self, in: &place, body)
    }
}

extension IndexMember {
    /// The slow path: the generic cast.
    ///
    /// In the library and never inlined into a caller's module (see
    /// ``Delivery``). Out of line also because,
    /// in unspecialized generic code, a `P?` anywhere in a function makes it
    /// fetch `Optional<P>`'s metadata on entry (a runtime cache lookup, ~325
    /// instructions) on every call, even when the projection path is taken.
    @usableFromInline
    @inline(never)
    static func castAndCall<P>(_ object: AnyObject, as _: P.Type, _ body: (P) -> Void) -> Bool {
        guard let listener = object as? P else { return false }
        body(listener)
        return true
    }
}

/// The members of an index, in a non-generic base class so that a broadcast
/// that repeats the previous protocol reads them without generic code.
class IndexMembers {
    // Unchecked: only read and written under the broadcaster's lock, which
    // already excludes overlapping access; the dynamic check cost ~76
    // instructions per broadcast (callgrind, Docs/PerformanceNotes.md).
    @exclusivity(unchecked) fileprivate(set) var members: [IndexMember] = []
    /// How many of the table's slots this index has seen (see
    /// ``ConformanceIndex/takeIn(_:cache:in:)``).
    fileprivate(set) var seenEntries = 0
}

/// The type-erased face of ``ConformanceIndex`` that the table's owner uses to
/// keep every index in step without knowing its protocol.
protocol AnyConformanceIndex: AnyObject {
    func noteRetired(_ entry: ListenerEntry)
    func settleConformance(of object: AnyObject, cache: inout ConformanceCache)
}

/// The listeners of one protocol `P`, in registration order: what a broadcast
/// to `P` iterates, so that its cost follows the listeners that match, not
/// every listener in the table.
///
/// Built on the first broadcast to `P` (one cast per live entry), then kept in
/// step incrementally: an added entry is tested against every existing index
/// (one cast per protocol ever broadcast), a removed one is only counted, and
/// the member list is filtered once retired members outnumber live ones.
/// Anything that breaks the incremental invariants (a compaction, an object
/// with two entries, a conformance learned on an actor) simply drops the index
/// so the next broadcast rebuilds it.
///
/// Mutated only under the ``Broadcaster``'s lock; `members` is a value, so a
/// broadcast takes a copy under the lock and iterates it after.
final class ConformanceIndex<P>: AnyConformanceIndex {
    private(set) var members: [ListenerEntry] = []
    private var memberObjects: Set<ObjectIdentifier> = []
    private var retiredMembers = 0

    init(entries: [ListenerEntry], cache: ConformanceCache) {
        let protocolID = ObjectIdentifier(P.self)
        for entry in entries {
            guard entry.listens(to: protocolID), let object = entry.liveObject else { continue }
            if Self.admits(object, of: entry, cache: cache), memberObjects.insert(entry.id).inserted {
                members.append(entry)
            }
        }
    }

    func admit(_ entry: ListenerEntry, cache: ConformanceCache) {
        guard entry.listens(to: ObjectIdentifier(P.self)), let object = entry.liveObject else { return }
        if Self.admits(object, of: entry, cache: cache), memberObjects.insert(entry.id).inserted {
            members.append(entry)
        }
    }

    func noteRetired(_ entry: ListenerEntry) {
        // Forget the identity at once, so the same object can be admitted
        // again (re-added after removal goes to the end).
        guard memberObjects.remove(entry.id) != nil else { return }
        retiredMembers += 1
        if retiredMembers * 2 > members.count {
            members.removeAll { $0.isRetired || $0.object == nil }
            retiredMembers = 0
        }
    }

    /// Whether `object` belongs in the index.
    ///
    /// A cast that succeeds is definitive. A cast that fails is definitive for
    /// a listener with no actor, but not for one registered on an actor: a
    /// conformance isolated to that actor (`extension Screen: @MainActor P`)
    /// makes the generic cast fail anywhere else. Such a listener stays in the
    /// index until a delivery on its actor settles the question (recorded in
    /// the ``ConformanceCache``).
    private static func admits(_ object: AnyObject, of entry: ListenerEntry, cache: ConformanceCache) -> Bool {
        if object is P { return true }
        guard entry.isolation != nil else { return false }
        return cache.conforms(type(of: object), to: P.self) ?? true
    }
}

/// The type-erased face of ``ConformanceIndex`` that the table's owner uses to
/// keep every index in step without knowing its protocol.
protocol AnyConformanceIndex: AnyObject {
    func admit(_ entry: ListenerEntry, cache: ConformanceCache)
    func noteRetired(_ entry: ListenerEntry)
}

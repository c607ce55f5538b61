/// Everything a ``Broadcaster`` knows, behind its one lock: the weak table, the
/// per-protocol indexes derived from it, and what deliveries on actors have
/// learned about conformances.
///
/// Methods here run under the lock and never call listener code.
struct BroadcasterStorage {
    private(set) var table = ListenerTable()
    private var indexes: [ObjectIdentifier: any AnyConformanceIndex] = [:]
    private var conformances = ConformanceCache()

    /// Registers `entry`; returns false if the same live object was already
    /// registered under the same key (it keeps its position).
    mutating func add(_ entry: ListenerEntry) -> Bool {
        switch table.add(entry) {
        case .alreadyPresent:
            return false
        case .appended(let invalidatesIndexes):
            if invalidatesIndexes {
                indexes.removeAll(keepingCapacity: true)
            } else {
                for index in indexes.values { index.admit(entry, cache: conformances) }
            }
            return true
        }
    }

    /// Unregisters the entry for `key`; returns it, or nil if there was none.
    mutating func remove(_ key: EntryKey) -> ListenerEntry? {
        guard let (entry, invalidatesIndexes) = table.remove(key) else { return nil }
        if invalidatesIndexes {
            indexes.removeAll(keepingCapacity: true)
        } else {
            for index in indexes.values { index.noteRetired(entry) }
        }
        return entry
    }

    /// The members of `P`'s index, building it on first use.
    mutating func members<P>(of _: P.Type) -> [ListenerEntry] {
        let key = ObjectIdentifier(P.self)
        if let index = indexes[key] as? ConformanceIndex<P> { return index.members }
        let index = ConformanceIndex<P>(entries: table.liveEntries, cache: conformances)
        indexes[key] = index
        return index.members
    }

    /// Records that `type` does not conform to `P`, learned by a delivery on the
    /// listener's actor, and drops `P`'s index so it is rebuilt without it.
    mutating func recordNonconformance<P>(of type: AnyObject.Type, to _: P.Type) {
        guard conformances.conforms(type, to: P.self) != false else { return }
        conformances.record(type, conformsTo: P.self, false)
        indexes[ObjectIdentifier(P.self)] = nil
    }
}

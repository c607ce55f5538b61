/// The weak listener table: `NSHashTable.weakObjects()` semantics, written for
/// every platform (swift-corelibs-foundation has no `NSHashTable`).
///
/// - Registration order is kept: `entries` is append-only between compactions.
/// - Identity is `===`: one entry per object (per ``EntryKey``), found in O(1)
///   through `slots`. An `ObjectIdentifier` can be reused by a new object
///   once the old one is deallocated, so a match is trusted only while the
///   matched entry's object is still alive.
/// - Nothing is retained: entries hold their objects weakly.
/// - Dead and removed entries are pruned by compaction, run when the array has
///   grown to twice the live count since the last one, so add and remove are
///   O(1) amortized and memory follows the live count, not the churn.
///
/// A plain value with no locking: ``Broadcaster`` keeps it inside its one
/// lock, and what it drops or loads goes into that critical section's
/// ``Releases``.
struct ListenerTable {
    /// Registration order.
    ///
    /// `nil` marks a removed slot until the next
    /// compaction.
    private(set) var entries: [ListenerEntry?] = []
    /// Where each `addListener` entry is, by object.
    ///
    /// `Int32` rather than
    /// `Int`: 4 bytes less per registration, and 2 billion registrations
    /// are more than a process can hold.
    private var listenerSlots: [ObjectIdentifier: Int32] = [:]
    /// Where each single-protocol registration's entry is.
    private var registrationSlots: [EntryKey: Int] = [:]
    /// How many single-protocol registrations each object has.
    private var registrationCounts: [ObjectIdentifier: Int] = [:]
    private var removedSlots = 0
    private var compactionThreshold = ListenerTable.minimumCompactionThreshold

    /// A number that changes when an index built from `entries` needs a
    /// rebuild.
    ///
    /// That is, when the index could be wrong other than by missing the
    /// entries appended since: a compaction moved the entries, or an object gained or kept a second entry (an index lists
    /// each object once, at its first entry). Appends and removals of an
    /// object's only entry leave it unchanged: an index takes appended
    /// entries in, and skips retired ones.
    private(set) var layoutVersion = 0

    static let minimumCompactionThreshold = 16

    /// Number of slots in use, live or not: what memory is proportional to.
    var storageCount: Int { entries.count }

    /// Appends `entry`; returns false, changing nothing, if the same live
    /// object is already registered under the same key (it keeps its
    /// position).
    mutating func add(_ entry: ListenerEntry, releasing releases: inout Releases) -> Bool {
        let key = EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol)
        if let slot = slot(for: key), let existing = entries[slot] {
            // Alive at this address, so it is the same object (two live
            // objects never share an address).
            if existing.isAlive(keepingIn: &releases) { return false }
            // The old object died and its address was reused.
            vacate(slot: slot, key: key, entry: existing, releasing: &releases)
        }
        if hasEntries(of: entry.id) { layoutVersion += 1 }
        entries.append(entry)
        setSlot(entries.count - 1, for: key)
        if entries.count >= compactionThreshold { compact(releasing: &releases) }
        return true
    }

    /// Removes the entry registered for `key` and returns it; nil if there
    /// was none, or if `expected` is given and is not that entry (owners that
    /// hold their listener weakly pass it: once that listener is gone, its
    /// address may identify a new object).
    mutating func remove(
        _ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil, releasing releases: inout Releases
    ) -> ListenerEntry? {
        guard let slot = slot(for: key), let entry = entries[slot] else { return nil }
        if let expected, expected !== entry { return nil }
        vacate(slot: slot, key: key, entry: entry, releasing: &releases)
        if hasEntries(of: key.objectID) { layoutVersion += 1 }
        if removedSlots * 2 > entries.count { compact(releasing: &releases) }
        return entry
    }

    /// Drops removed slots and entries whose object died; keeps order.
    ///
    /// A table that only grew (nothing removed, nothing dead) is left as it
    /// is: only the next threshold moves, so indexes need not be rebuilt.
    /// The entries dropped go into `releases`: an entry holds the actor its
    /// listener registered from, which may be the last reference to it.
    mutating func compact(releasing releases: inout Releases) {
        var kept: [ListenerEntry?] = []
        kept.reserveCapacity(entries.count - removedSlots)
        for case let entry? in entries {
            if entry.isAlive(keepingIn: &releases) {
                kept.append(entry)
            } else {
                entry.retire()
            }
        }
        guard kept.count < entries.count else {
            compactionThreshold = Swift.max(Self.minimumCompactionThreshold, entries.count * 2)
            return
        }
        listenerSlots.removeAll(keepingCapacity: true)
        registrationSlots.removeAll(keepingCapacity: true)
        registrationCounts.removeAll(keepingCapacity: true)
        for (slot, entry) in kept.enumerated() {
            guard let entry else { continue }
            setSlot(slot, for: EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol))
        }
        releases.keep(entries)
        entries = kept
        removedSlots = 0
        compactionThreshold = Swift.max(Self.minimumCompactionThreshold, kept.count * 2)
        layoutVersion += 1
    }

    private mutating func vacate(slot: Int, key: EntryKey, entry: ListenerEntry, releasing releases: inout Releases) {
        entry.retire()
        releases.keep(entry)
        setSlot(nil, for: key)
        entries[slot] = nil
        removedSlots += 1
    }

    private func slot(for key: EntryKey) -> Int? {
        key.onlyProtocol == nil ? listenerSlots[key.objectID].map(Int.init) : registrationSlots[key]
    }

    /// Records (or, with nil, forgets) where the entry for `key` is.
    private mutating func setSlot(_ slot: Int?, for key: EntryKey) {
        guard key.onlyProtocol != nil else {
            listenerSlots[key.objectID] = slot.map { Int32($0) }
            return
        }
        if let slot {
            if registrationSlots.updateValue(slot, forKey: key) == nil {
                registrationCounts[key.objectID, default: 0] += 1
            }
        } else if registrationSlots.removeValue(forKey: key) != nil {
            let remaining = registrationCounts[key.objectID, default: 1] - 1
            registrationCounts[key.objectID] = remaining > 0 ? remaining : nil
        }
    }

    /// Whether `object` has any entry in the table.
    private func hasEntries(of object: ObjectIdentifier) -> Bool {
        listenerSlots[object] != nil || registrationCounts[object] != nil
    }
}

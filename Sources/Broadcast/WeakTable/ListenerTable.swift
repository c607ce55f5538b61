/// The weak listener table: `NSHashTable.weakObjects()` semantics, written for
/// every platform (swift-corelibs-foundation has no `NSHashTable`).
///
/// - Registration order is kept: `entries` is append-only between compactions.
/// - Identity is `===`: one entry per object (per ``EntryKey``), looked up in
///   O(1) through `slots`. An `ObjectIdentifier` can be reused by a new object
///   once the old one is deallocated, so a match is trusted only while the
///   matched entry's object is still alive.
/// - Nothing is retained: entries hold their objects weakly.
/// - Dead and removed entries are pruned by compaction, run when the array has
///   grown to twice the live count since the last one, so add and remove are
///   O(1) amortized and memory follows the live count, not the churn.
///
/// A plain value with no locking: ``Broadcaster`` keeps it inside its one lock.
struct ListenerTable {
    /// Registration order.
    ///
    /// `nil` marks a removed slot until the next compaction.
    private(set) var entries: [ListenerEntry?] = []
    /// Where each `addListener` entry is, by object: the common case, in a
    /// map that stores no keys.
    private var listenerSlots = SlotMap()
    /// Where each single-protocol registration's entry is.
    private var registrationSlots: [EntryKey: Int] = [:]
    /// How many single-protocol registrations each object has (an object with
    /// more than one entry makes indexes deduplicate).
    private var registrationCounts: [ObjectIdentifier: Int] = [:]
    private var removedSlots = 0
    private var compactionThreshold = ListenerTable.minimumCompactionThreshold

    static let minimumCompactionThreshold = 16

    /// What `add` did, so the caller can keep its indexes in step.
    enum Insertion {
        /// The entry was appended. `invalidatesIndexes` is set when the
        /// incremental index update would be wrong: the object now has two
        /// entries, an entry with a reused address was replaced, or the table
        /// compacted.
        case appended(invalidatesIndexes: Bool)
        /// The same live object was already registered with this key.
        case alreadyPresent
    }

    /// Number of slots in use, live or not: what memory is proportional to.
    var storageCount: Int { entries.count }

    /// Live, registered entries in registration order.
    var liveEntries: [ListenerEntry] {
        entries.compactMap { entry in
            guard let entry, entry.liveObject != nil else { return nil }
            return entry
        }
    }

    mutating func add(_ entry: ListenerEntry) -> Insertion {
        guard entry.onlyProtocol == nil else { return addRegistration(entry) }
        let key = EntryKey(object: entry.id, onlyProtocol: nil)
        var replacedDeadEntry = false
        if let slot = listenerSlots.slot(of: entry.id, orInsert: entries.count, in: entries) {
            let existing = entries[slot].unsafelyUnwrapped
            // Alive at this address, so it is the same object (two live
            // objects never share an address): keep its position.
            if existing.object != nil { return .alreadyPresent }
            // The old object died and its address was reused.
            vacate(slot: slot, key: key, entry: existing)
            replacedDeadEntry = true
            entries.append(entry)
            listenerSlots.insert(entries.count - 1, in: entries)
        } else {
            entries.append(entry)
        }
        // Its only other entries can be single-protocol registrations.
        let sharesObject = !registrationCounts.isEmpty && registrationCounts[entry.id] != nil
        let compacted = entries.count >= compactionThreshold && compact()
        return .appended(invalidatesIndexes: sharesObject || replacedDeadEntry || compacted)
    }

    /// Adds a single-protocol registration's entry.
    private mutating func addRegistration(_ entry: ListenerEntry) -> Insertion {
        let key = EntryKey(object: entry.id, onlyProtocol: entry.onlyProtocol)
        var replacedDeadEntry = false
        if let slot = slot(for: key), let existing = entries[slot] {
            if existing.object != nil {
                // Alive at this address, so it is the same object (two live
                // objects never share an address): keep its position.
                return .alreadyPresent
            }
            // The old object died and its address was reused.
            vacate(slot: slot, key: key, entry: existing)
            replacedDeadEntry = true
        }
        let sharesObject = hasEntries(of: entry.id)
        entries.append(entry)
        setSlot(entries.count - 1, for: key)
        let compacted = entries.count >= compactionThreshold && compact()
        return .appended(invalidatesIndexes: sharesObject || replacedDeadEntry || compacted)
    }

    /// Removes the entry registered for `key`; returns it, or nil if there was
    /// none.
    ///
    /// `invalidatesIndexes` is set when the object still has another
    /// entry (an index may have deduplicated it away) or the table compacted.
    mutating func remove(_ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil) -> (
        entry: ListenerEntry, invalidatesIndexes: Bool
    )? {
        guard let slot = slot(for: key), let entry = entries[slot] else { return nil }
        if let expected, expected !== entry { return nil }
        vacate(slot: slot, key: key, entry: entry)
        let sharesObject = hasEntries(of: key.object)
        let compacted = removedSlots * 2 > entries.count && compact()
        return (entry, sharesObject || compacted)
    }

    /// Drops removed slots and entries whose object died; keeps order.
    ///
    /// A table that only grew (nothing removed, nothing dead) is left as it
    /// is: only the next threshold moves, so indexes need not be rebuilt.
    ///
    /// - Returns: Whether anything was dropped.
    @discardableResult
    mutating func compact() -> Bool {
        let hasGarbage = removedSlots > 0 || entries.contains { $0?.object == nil }
        guard hasGarbage else {
            compactionThreshold = Swift.max(Self.minimumCompactionThreshold, entries.count * 2)
            return false
        }
        var kept: [ListenerEntry?] = []
        kept.reserveCapacity(entries.count - removedSlots)
        listenerSlots.removeAll()
        registrationSlots.removeAll(keepingCapacity: true)
        registrationCounts.removeAll(keepingCapacity: true)
        for case let entry? in entries {
            if entry.object == nil {
                entry.retire()
                continue
            }
            kept.append(entry)
            if entry.onlyProtocol == nil {
                listenerSlots.insert(kept.count - 1, in: kept)
            } else {
                setSlot(kept.count - 1, for: EntryKey(object: entry.id, onlyProtocol: entry.onlyProtocol))
            }
        }
        entries = kept
        removedSlots = 0
        compactionThreshold = Swift.max(Self.minimumCompactionThreshold, kept.count * 2)
        return true
    }

    private mutating func vacate(slot: Int, key: EntryKey, entry: ListenerEntry) {
        entry.retire()
        // Unmapped first: the slot map reads identities from the entries.
        if key.onlyProtocol == nil {
            listenerSlots.remove(key.object, in: entries)
        } else {
            setSlot(nil, for: key)
        }
        entries[slot] = nil
        removedSlots += 1
    }

    private func slot(for key: EntryKey) -> Int? {
        key.onlyProtocol == nil ? listenerSlots.slot(of: key.object, in: entries) : registrationSlots[key]
    }

    /// Records (or, with nil, forgets) where a single-protocol
    /// registration's entry is.
    private mutating func setSlot(_ slot: Int?, for key: EntryKey) {
        if let slot {
            if registrationSlots.updateValue(slot, forKey: key) == nil {
                registrationCounts[key.object, default: 0] += 1
            }
        } else if registrationSlots.removeValue(forKey: key) != nil {
            let remaining = registrationCounts[key.object, default: 1] - 1
            registrationCounts[key.object] = remaining > 0 ? remaining : nil
        }
    }

    /// Whether `object` has any entry in the table.
    private func hasEntries(of object: ObjectIdentifier) -> Bool {
        listenerSlots.slot(of: object, in: entries) != nil || registrationCounts[object] != nil
    }
}

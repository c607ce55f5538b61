/// The weak listener table, and the per-protocol indexes derived from it:
/// plain values inside ``BroadcasterStorage``.
///
/// The table keeps registration order and one entry per object and
/// ``EntryKey``, found in O(1). A removed slot stays `nil` until a
/// compaction (once the array has doubled) drops it with the dead entries,
/// so memory follows the live count. An address can be reused once its
/// object dies: a match is trusted only while its object lives.
struct ListenerTable {
    /// Registration order; `nil` marks a removed slot.
    private(set) var entries: [ListenerEntry?] = []
    /// Where each `addListener` entry is (`Int32`: 4 bytes less per registration).
    private var listenerSlots: [ObjectIdentifier: Int32] = [:]
    private var registrationSlots: [EntryKey: Int] = [:]
    private var registeredObjects: [ObjectIdentifier: RegisteredObject] = [:]
    private var removedSlots = 0
    private var compactionThreshold = ListenerTable.minimumCompactionThreshold

    /// Changes when an index must be rebuilt rather than extended: a
    /// compaction moved the entries, or an object gained or kept a second
    /// entry (an index lists an object once, at its first entry).
    private(set) var layoutVersion = 0
    /// Changes when `entries` grows or its layout changes.
    private(set) var revision = 0

    static let minimumCompactionThreshold = 16

    var storageCount: Int { entries.count }

    /// Appends `entry`; false, changing nothing, if its object is registered
    /// under the same key already (it keeps its position).
    mutating func add(_ entry: ListenerEntry, releasing releases: inout Releases) -> Bool {
        let key = EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol)
        if let slot = slot(for: key), let existing = entries[slot] {
            // Two live objects never share an address: alive means the same object.
            if existing.isAlive(keepingIn: &releases) { return false }
            vacate(slot: slot, key: key, entry: existing, releasing: &releases)
        }
        let hasRegistrations = hasRegistrations(entry.id)
        if hasRegistrations || listenerSlots[entry.id] != nil { layoutVersion += 1 }
        if hasRegistrations || key.onlyProtocol != nil { shareStickyProgress(with: entry, releasing: &releases) }
        entries.append(entry)
        revision += 1
        setSlot(entries.count - 1, for: key)
        if entries.count >= compactionThreshold { compact(releasing: &releases) }
        return true
    }

    /// Removes and returns the entry registered for `key`; nil if there is
    /// none, or if it is not `expected` (an owner holding its listener weakly
    /// passes its entry: the address may name a new object now).
    mutating func remove(
        _ key: EntryKey, ifEntryIs expected: ListenerEntry? = nil, releasing releases: inout Releases
    ) -> ListenerEntry? {
        guard let slot = slot(for: key), let entry = entries[slot] else { return nil }
        if let expected, expected !== entry { return nil }
        vacate(slot: slot, key: key, entry: entry, releasing: &releases)
        if hasEntries(of: key.objectID) {
            layoutVersion += 1
            revision += 1
        }
        if removedSlots * 2 > entries.count { compact(releasing: &releases) }
        return entry
    }

    func slot(of entry: ListenerEntry) -> Int? {
        guard let slot = slot(for: EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol)),
            entries[slot] === entry
        else { return nil }
        return slot
    }

    /// Drops removed slots and dead entries, keeping order; a table that only
    /// grew is left as it is, so indexes need no rebuild.
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
        registeredObjects.removeAll(keepingCapacity: true)
        for (slot, entry) in kept.enumerated() {
            guard let entry else { continue }
            if entry.onlyProtocol != nil, registeredObjects[entry.id] == nil {
                registeredObjects[entry.id] = RegisteredObject(
                    count: 0, object: entry.object(keepingIn: &releases), progress: entry.stickyProgress)
            }
            setSlot(slot, for: EntryKey(objectID: entry.id, onlyProtocol: entry.onlyProtocol))
        }
        // The entries dropped hold the actors their listeners registered from.
        releases.keep(entries)
        entries = kept
        removedSlots = 0
        compactionThreshold = Swift.max(Self.minimumCompactionThreshold, kept.count * 2)
        layoutVersion += 1
        revision += 1
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

    private mutating func setSlot(_ slot: Int?, for key: EntryKey) {
        guard key.onlyProtocol != nil else {
            listenerSlots[key.objectID] = slot.map { Int32($0) }
            return
        }
        if let slot {
            if registrationSlots.updateValue(slot, forKey: key) == nil { registeredObjects[key.objectID]?.count += 1 }
        } else if registrationSlots.removeValue(forKey: key) != nil {
            registeredObjects[key.objectID]?.count -= 1
            if registeredObjects[key.objectID]?.count == 0 { registeredObjects[key.objectID] = nil }
        }
    }

    private func hasEntries(of object: ObjectIdentifier) -> Bool {
        listenerSlots[object] != nil || hasRegistrations(object)
    }

    /// Whether `object` has single-protocol registrations; most tables have none.
    private func hasRegistrations(_ object: ObjectIdentifier) -> Bool {
        !registeredObjects.isEmpty && registeredObjects.index(forKey: object) != nil
    }

    // Makes `entry` claim its sticky calls where the object's other entries
    // do, so that the object never sees an older state after a newer one
    // through either. An object with single-protocol registrations keeps
    // its progress here; one with only an `addListener` entry keeps it there.
    private mutating func shareStickyProgress(with entry: ListenerEntry, releasing releases: inout Releases) {
        // A record whose object died belongs to another object at this address.
        if let record = registeredObjects[entry.id], record.isAlive(keepingIn: &releases) {
            entry.share(record.progress)
            return
        }
        let listenerEntry = listenerSlots[entry.id].flatMap { entries[Int($0)] }
        let progress =
            listenerEntry.flatMap { $0.isAlive(keepingIn: &releases) ? $0.stickyProgress : nil } ?? StickyProgress()
        registeredObjects[entry.id] = RegisteredObject(
            count: registeredObjects[entry.id]?.count ?? 0, object: entry.object(keepingIn: &releases),
            progress: progress)
        entry.share(progress)
    }
}

/// One registration's identity: the object and, if single-protocol, its protocol.
struct EntryKey: Hashable {
    let objectID: ObjectIdentifier
    let onlyProtocol: ObjectIdentifier?
}

/// An object with single-protocol registrations: how many, and the sticky
/// progress its entries share.
private struct RegisteredObject {
    var count: Int
    weak var object: AnyObject?
    let progress: StickyProgress

    func isAlive(keepingIn releases: inout Releases) -> Bool {
        guard let object else { return false }
        releases.keep(object)
        return true
    }
}

// MARK: - Indexes

/// One protocol's members, in registration order, so that a broadcast's cost
/// follows the listeners that may conform.
///
/// When the table has moved on, a broadcast takes the new entries (all of
/// them after a layout change) out of the lock in an ``IndexIntake``,
/// decides them with no lock held, and commits the decision, which applies
/// only if nothing changed the index meanwhile. Removals are counted, and
/// filtered once they reach half of the members.
struct ProtocolIndex {
    let protocolType: Any.Type
    let protocolID: ObjectIdentifier
    private(set) var members: [ListenerEntry] = []
    private var seen = 0
    /// The table's layout those slots belong to; -1 forces a rebuild.
    private var layoutVersion = -1
    /// The table's revision the members are in step with; -1: none.
    private var revision = -1
    /// An intake commits only onto the generation it was taken from.
    private var generation = 0
    /// Counted without checking membership: an over-count only filters sooner.
    private var retiredSinceFilter = 0

    init(for protocolType: Any.Type) {
        self.protocolType = protocolType
        protocolID = ObjectIdentifier(protocolType)
    }

    /// The members if in step with the table at `revision`; a single member
    /// alone if `singling` (mutating only so that the caller projects the
    /// index in place).
    mutating func members(atRevision revision: Int, singling: Bool) -> Members? {
        guard self.revision == revision else { return nil }
        if singling, members.count == 1 { return .one(members[0]) }
        return .ready(members)
    }

    mutating func intake(from table: ListenerTable, at position: Int, knowing known: KnownNonconformances) -> Members {
        let isRebuild = layoutVersion != table.layoutVersion
        let start = isRebuild ? 0 : seen
        guard start < table.entries.count || isRebuild else {
            revision = table.revision
            return .ready(members)
        }
        return .intake(
            IndexIntake(
                position: position, protocolID: protocolID, generation: generation, layoutVersion: table.layoutVersion,
                revision: table.revision, isRebuild: isRebuild, members: isRebuild ? [] : members,
                entries: table.entries[start...], known: known))
    }

    /// Applies a decision made outside the lock; false if the index changed meanwhile.
    mutating func commit(
        _ intake: IndexIntake, admitting admitted: [ListenerEntry], in table: ListenerTable,
        releasing releases: inout Releases
    ) -> Bool {
        guard generation == intake.generation, table.layoutVersion == intake.layoutVersion else { return false }
        // An entry holding its handler unregistered while the intake was
        // decided is not listed again: it left the index at once.
        let admitted = admitted.contains { $0.isRetired } ? admitted.filter { !$0.isRetired } : admitted
        if intake.isRebuild {
            // The old members may hold the last reference to an entry, and
            // through it to the actor its listener registered from.
            releases.keep(members)
            members = admitted
            retiredSinceFilter = 0
        } else {
            members.append(contentsOf: admitted)
        }
        seen = intake.entries.endIndex
        layoutVersion = intake.layoutVersion
        revision = table.revision == intake.revision ? intake.revision : -1
        generation += 1
        return true
    }

    /// Counts `entry`, just unregistered, among the members to filter out;
    /// an entry that holds its handler leaves its post's index at once,
    /// into `releases`, so that the handler is let go once nothing else
    /// (a delivery under way) holds it.
    mutating func noteRetired(_ entry: ListenerEntry, releasing releases: inout Releases) {
        guard entry.listens(to: protocolID) else { return }
        if let handler = entry.heldHandler {
            guard handler.postKey == protocolID, let position = members.lastIndex(where: { $0 === entry }) else {
                return
            }
            releases.keep(members.remove(at: position))
            return
        }
        retiredSinceFilter += 1
        guard retiredSinceFilter * 2 > members.count else { return }
        releases.keep(members)
        members.removeAll { $0.isRetired || !$0.isAlive(keepingIn: &releases) }
        retiredSinceFilter = 0
    }

    mutating func invalidate() {
        layoutVersion = -1
        revision = -1
        generation += 1
    }

    /// Whether the members reflect a decision about the entry in `slot`.
    func hasConsidered(slot: Int, in table: ListenerTable) -> Bool {
        layoutVersion == table.layoutVersion && slot < seen
    }
}

/// What a broadcast reads under the lock: the members, or an intake.
enum Members: Sendable {
    case ready([ListenerEntry])
    /// The one member, handed out without its array: a broadcast to it
    /// retains and releases the entry alone.
    case one(ListenerEntry)
    case intake(IndexIntake)
}

/// The entries an index has yet to decide, taken out of the lock with
/// what the decision needs; allocated only when an index is behind.
final class IndexIntake: Sendable {
    let position: Int
    let protocolID: ObjectIdentifier
    let generation: Int
    let layoutVersion: Int
    let revision: Int
    let isRebuild: Bool
    let members: [ListenerEntry]
    let entries: ArraySlice<ListenerEntry?>
    let known: KnownNonconformances

    init(
        position: Int, protocolID: ObjectIdentifier, generation: Int, layoutVersion: Int, revision: Int,
        isRebuild: Bool, members: [ListenerEntry], entries: ArraySlice<ListenerEntry?>, known: KnownNonconformances
    ) {
        self.position = position
        self.protocolID = protocolID
        self.generation = generation
        self.layoutVersion = layoutVersion
        self.revision = revision
        self.isRebuild = isRebuild
        self.members = members
        self.entries = entries
        self.known = known
    }
}

/// Every protocol's index; positions never change (indexes are only added).
struct ProtocolIndexes {
    private(set) var all: [ProtocolIndex] = []
    private var positions: [ObjectIdentifier: Int] = [:]
    /// The index the latest broadcast used, checked before hashing.
    private var latest = 0

    @inline(__always)
    mutating func position(for protocolType: Any.Type) -> Int {
        let id = ObjectIdentifier(protocolType)
        if latest < all.count, all[latest].protocolID == id { return latest }
        if let position = positions[id] {
            latest = position
            return position
        }
        all.append(ProtocolIndex(for: protocolType))
        positions[id] = all.count - 1
        latest = all.count - 1
        return latest
    }

    /// A broadcast's common case, read in place.
    mutating func members(at position: Int, atRevision revision: Int, singling: Bool) -> Members? {
        all[position].members(atRevision: revision, singling: singling)
    }

    func existingPosition(for protocolID: ObjectIdentifier) -> Int? {
        positions[protocolID]
    }

    subscript(position: Int) -> ProtocolIndex {
        get { all[position] }
        _modify { yield &all[position] }
    }
}

/// Listener classes proved not to be a `P` on an actor.
///
/// A cast made elsewhere cannot tell "not a `P`" from "a `P` only there":
/// without this, an index rebuilt off that actor would list them again.
struct KnownNonconformances: Sendable {
    private struct Key: Hashable {
        let type: ObjectIdentifier
        let protocolType: ObjectIdentifier
        let actor: ObjectIdentifier
    }

    private var keys: Set<Key> = []

    func contains(_ type: AnyObject.Type, _ protocolID: ObjectIdentifier, on actor: any Actor) -> Bool {
        keys.contains(Key(type: ObjectIdentifier(type), protocolType: protocolID, actor: ObjectIdentifier(actor)))
    }

    @discardableResult
    mutating func insert(_ type: AnyObject.Type, _ protocolID: ObjectIdentifier, on actor: any Actor) -> Bool {
        keys.insert(Key(type: ObjectIdentifier(type), protocolType: protocolID, actor: ObjectIdentifier(actor)))
            .inserted
    }
}

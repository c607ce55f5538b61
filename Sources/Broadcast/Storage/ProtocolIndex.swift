/// The listeners of one protocol, in registration order: what a broadcast to
/// it iterates, so that its cost follows the listeners that may conform, not
/// every listener in the table.
///
/// Built on the first broadcast to the protocol, then kept in step with the
/// table when next used: the entries appended since are taken in (one cast
/// each, ``Conformance/isCandidate(_:of:as:knowing:in:)``); a removed entry
/// is only counted, and the members are filtered once the removals counted
/// since the last filter reach half of them (amortized O(1) per removal).
/// When the table's layout changed (``ListenerTable/layoutVersion``), or a
/// delivery learned a nonconformance (``invalidate()``), the index is rebuilt
/// instead.
///
/// Mutated only under the ``Broadcaster``'s lock; `members` is a value, so a
/// broadcast takes a copy under the lock and iterates it after. What it
/// drops or loads goes into the critical section's ``Releases``.
final class ProtocolIndex {
    /// The protocol (or class) whose listeners this lists, as passed to
    /// `broadcast(to:)`.
    let protocolType: Any.Type
    private(set) var members: [ListenerEntry] = []
    /// How many of the table's slots were considered.
    private var seenEntries = 0
    /// The table's layout those slots belong to.
    private var layoutVersion = 0
    /// Whether the members must be rebuilt from scratch: a new index, or one
    /// that a learned nonconformance made stale.
    private var isStale = true
    /// Members retired since the last filter (counted without checking
    /// membership: an over-count only filters sooner).
    private var retiredSinceFilter = 0

    init<P>(for _: P.Type) {
        protocolType = P.self
    }

    var protocolID: ObjectIdentifier { ObjectIdentifier(protocolType) }

    /// Brings the members in step with `table`.
    ///
    /// New entries are decided in `context`; `P` is ``protocolType``.
    ///
    /// - Returns: The entries considered now (every entry when rebuilt), for
    ///   the debug-build isolated-conformance check.
    @discardableResult
    func update<P>(
        from table: ListenerTable, as _: P.Type, knowing known: inout KnownNonconformances,
        in context: inout DeliveryContext, releasing releases: inout Releases
    ) -> ArraySlice<ListenerEntry?> {
        let entries = table.entries
        if isStale || layoutVersion != table.layoutVersion {
            releases.keep(members)
            members.removeAll(keepingCapacity: true)
            seenEntries = 0
            retiredSinceFilter = 0
            layoutVersion = table.layoutVersion
            isStale = false
        }
        guard seenEntries < entries.count else { return [] }
        let added = entries[seenEntries...]
        // An object has one entry here unless it has two in the table, which
        // changes the layout; so only a rebuild can meet an object twice.
        var admitted: Set<ObjectIdentifier>? = seenEntries == 0 ? [] : nil
        for case let entry? in added {
            guard entry.listens(to: protocolID), let object = entry.liveObject(keepingIn: &releases),
                Conformance.isCandidate(object, of: entry, as: P.self, knowing: &known, in: &context)
            else { continue }
            if admitted?.insert(entry.id).inserted == false { continue }
            members.append(entry)
        }
        seenEntries = entries.count
        return added
    }

    /// ``update(from:as:knowing:in:releasing:)`` for code that does not know the
    /// protocol statically: it opens ``protocolType``.
    @discardableResult
    func update(
        from table: ListenerTable, knowing known: inout KnownNonconformances, in context: inout DeliveryContext,
        releasing releases: inout Releases
    ) -> ArraySlice<ListenerEntry?> {
        update(from: table, as: protocolType, knowing: &known, in: &context, releasing: &releases)
    }

    /// Counts a removed entry; filters the members once enough were.
    func noteRetired(_ entry: ListenerEntry, releasing releases: inout Releases) {
        guard entry.listens(to: protocolID) else { return }
        retiredSinceFilter += 1
        if retiredSinceFilter * 2 > members.count {
            releases.keep(members)
            members.removeAll { $0.isRetired || !$0.isAlive(keepingIn: &releases) }
            retiredSinceFilter = 0
        }
    }

    /// Makes the next update rebuild the members.
    func invalidate() {
        isStale = true
    }
}

extension ProtocolIndex {
    /// Whether the members reflect a decision about `entry`.
    ///
    /// True when it is among the table slots taken in and nothing made the
    /// index stale since. For diagnostics, which read an index without
    /// updating it.
    func hasConsidered(_ entry: ListenerEntry, in table: ListenerTable) -> Bool {
        guard !isStale, layoutVersion == table.layoutVersion else { return false }
        return table.entries.prefix(seenEntries).contains { $0 === entry }
    }
}

/// Every protocol's index, by the protocol's identity.
///
/// Part of ``BroadcasterStorage``: used only under the broadcaster's lock.
struct ProtocolIndexes {
    private var indexes: [ObjectIdentifier: ProtocolIndex] = [:]
    /// The index the latest broadcast used, checked before the dictionary:
    /// broadcasts often repeat a protocol, and hashing the key was a
    /// noticeable part of a broadcast to one listener.
    private var latest: ProtocolIndex?

    var isEmpty: Bool { indexes.isEmpty }

    var all: Dictionary<ObjectIdentifier, ProtocolIndex>.Values { indexes.values }

    /// `P`'s index, made (empty and stale, so its first update builds it) if
    /// there is none.
    mutating func index<P>(for _: P.Type) -> ProtocolIndex {
        let key = ObjectIdentifier(P.self)
        if let latest, latest.protocolID == key { return latest }
        let index = indexes[key] ?? ProtocolIndex(for: P.self)
        indexes[key] = index
        latest = index
        return index
    }

    /// `P`'s index if one exists; nothing is made.
    func existingIndex<P>(for _: P.Type) -> ProtocolIndex? {
        indexes[ObjectIdentifier(P.self)]
    }
}

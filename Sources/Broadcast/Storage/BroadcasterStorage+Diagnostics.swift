/// What diagnostics read behind the lock; nothing here changes what a later
/// broadcast does.
///
/// These take identifiers, not listeners (a non-`Sendable` object passed
/// into the lock's closure would tie the storage to the caller's region).
/// Callers compare the entries' objects with theirs (`===`) after the lock,
/// which also skips a dead object whose address theirs reuses.
extension BroadcasterStorage {
    /// The registered entries whose object had identifier `id`, in
    /// registration order.
    func entries(withID id: ObjectIdentifier) -> [ListenerEntry] {
        table.entries.compactMap { entry in
            guard let entry, entry.id == id, !entry.isRetired else { return nil }
            return entry
        }
    }

    /// Every registered entry, dead or alive, in registration order.
    var registeredEntries: [ListenerEntry] {
        table.entries.compactMap { entry in
            guard let entry, !entry.isRetired else { return nil }
            return entry
        }
    }

    /// Whether `P`'s index exists and has decided `entry`, and if so whether
    /// it lists it; diagnostics must not build an index.
    func indexMembership<P>(of entry: ListenerEntry, in _: P.Type) -> Bool? {
        guard let position = indexes.existingPosition(for: ObjectIdentifier(P.self)),
            let slot = table.slot(of: entry), indexes[position].hasConsidered(slot: slot, in: table)
        else { return nil }
        return indexes[position].members.contains { $0 === entry }
    }
}

/// The single-protocol registrations stopped while their listener lives, so
/// that `deliveryExplanation(for:to:)` can say "registration stopped".
///
/// One record per listener and protocol, held weakly; records of dead
/// listeners are pruned once the list has doubled.
struct StoppedRegistrations {
    private struct Record {
        let listener: WeakListener
        let protocolID: ObjectIdentifier
    }

    private var records: [Record] = []
    private var pruningThreshold = 16

    mutating func note(_ entry: ListenerEntry, releasing releases: inout Releases) {
        guard let protocolID = entry.onlyProtocol, let object = entry.object(keepingIn: &releases) else { return }
        let isKnown = records.contains { record in
            record.protocolID == protocolID && record.listener.object(keepingIn: &releases) === object
        }
        guard !isKnown else { return }
        records.append(Record(listener: WeakListener(object), protocolID: protocolID))
        if records.count >= pruningThreshold {
            records.removeAll { $0.listener.object(keepingIn: &releases) == nil }
            pruningThreshold = Swift.max(16, records.count * 2)
        }
    }

    /// The listeners whose registration for `protocolID` was stopped;
    /// callers compare them after the lock.
    func listeners(stoppedFor protocolID: ObjectIdentifier) -> [WeakListener] {
        records.filter { $0.protocolID == protocolID }.map(\.listener)
    }
}

/// What ``StorageLock/explanationFacts(for:as:)`` read under the lock.
struct ExplanationFacts: Sendable {
    let entries: [ListenerEntry]
    let memberships: [Bool?]
    let known: KnownNonconformances
    let stopped: [WeakListener]
}

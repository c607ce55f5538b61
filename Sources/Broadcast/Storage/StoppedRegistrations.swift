/// The single-protocol registrations that were stopped while their listener
/// lives, so that ``Broadcaster/deliveryExplanation(for:to:isolation:)`` can
/// say "registration stopped" instead of "not registered".
///
/// A stopped ``ListenerRegistration`` leaves nothing in the weak table, and
/// the broadcaster never holds the registration itself; this is the one
/// thing it remembers about it. Written only when a registration stops
/// (never by a broadcast), read only by diagnostics.
///
/// Bounded like the table: one record per (listener, protocol), holding the
/// listener weakly; records whose listener died are pruned once the list has
/// doubled since the last pruning, so memory follows the live listeners.
struct StoppedRegistrations {
    private struct Record {
        let listener: WeakListener
        let protocolID: ObjectIdentifier
    }

    private var records: [Record] = []
    private var pruningThreshold = 16

    /// Remembers that `entry`, a single-protocol registration, was stopped.
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

    /// The listeners whose registration for `protocolID` was stopped.
    ///
    /// Callers compare them with `===` after the lock is released.
    func listeners(stoppedFor protocolID: ObjectIdentifier) -> [WeakListener] {
        records.filter { $0.protocolID == protocolID }.map(\.listener)
    }
}

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

/// The latest sticky broadcast per protocol, oldest first, so replays follow
/// broadcast order.
///
/// Part of ``BroadcasterStorage``: used only under the broadcaster's lock.
struct StickyBroadcasts {
    private(set) var all: [StickyBroadcast] = []

    /// Keeps `sticky` as the latest for its protocol, replacing the previous
    /// one; it moves to the end.
    mutating func set(_ sticky: StickyBroadcast) {
        all.removeAll { $0.protocolID == sticky.protocolID }
        all.append(sticky)
    }

    mutating func clear(for protocolID: ObjectIdentifier) {
        all.removeAll { $0.protocolID == protocolID }
    }

    mutating func clearAll() {
        all.removeAll()
    }

    func latest(for protocolID: ObjectIdentifier) -> StickyBroadcast? {
        all.last { $0.protocolID == protocolID }
    }
}

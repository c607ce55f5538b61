/// The latest sticky broadcast per protocol, oldest first, so replays follow
/// broadcast order.
///
/// Part of ``BroadcasterStorage``: used only under the broadcaster's lock.
/// What it replaces or forgets goes into the critical section's
/// ``Releases``: a sticky broadcast holds its payload.
struct StickyBroadcasts {
    private(set) var all: [StickyBroadcast] = []
    private var recorded: UInt64 = 0

    /// Keeps `sticky` as the latest for its protocol, replacing the previous
    /// one; it moves to the end.
    ///
    /// - Returns: Its generation: newer than every sticky broadcast recorded
    ///   before it.
    mutating func set(_ sticky: StickyBroadcast, releasing releases: inout Releases) -> StickyGeneration {
        if let index = all.firstIndex(where: { $0.protocolID == sticky.protocolID }) {
            releases.keep(all.remove(at: index))
        }
        var sticky = sticky
        recorded += 1
        sticky.number(recorded)
        all.append(sticky)
        return sticky.generation
    }

    mutating func clear(for protocolID: ObjectIdentifier, releasing releases: inout Releases) {
        guard let index = all.firstIndex(where: { $0.protocolID == protocolID }) else { return }
        releases.keep(all.remove(at: index))
    }

    mutating func clearAll(releasing releases: inout Releases) {
        releases.keep(all)
        all = []
    }

    func latest(for protocolID: ObjectIdentifier) -> StickyBroadcast? {
        all.last { $0.protocolID == protocolID }
    }
}

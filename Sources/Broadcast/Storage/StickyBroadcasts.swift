/// The latest sticky broadcast per protocol, oldest first, so replays follow
/// broadcast order, and the generation of each protocol's latest change.
///
/// Part of ``BroadcasterStorage``: used only under the broadcaster's lock.
/// What it replaces or forgets goes into the critical section's
/// ``Releases``: a sticky broadcast holds its payload.
struct StickyBroadcasts {
    private(set) var all: [StickyBroadcast] = []
    /// The generation of the latest change (recorded or cleared).
    private var recorded: UInt64 = 0
    /// The generation of each protocol's latest change, so that a reader
    /// can tell whether a state it saw was replaced or cleared since.
    private var changes: [ObjectIdentifier: UInt64] = [:]

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
        sticky.number(nextGeneration(for: sticky.protocolID))
        all.append(sticky)
        return sticky.generation
    }

    /// Forgets the sticky broadcast to `protocolID`, if there is one and, when
    /// `expected` is given, if it is still that generation.
    ///
    /// - Returns: What was forgotten (also kept in `releases`); nil if
    ///   nothing was.
    @discardableResult
    mutating func clear(
        for protocolID: ObjectIdentifier, ifStill expected: UInt64? = nil, releasing releases: inout Releases
    ) -> StickyBroadcast? {
        guard let index = all.firstIndex(where: { $0.protocolID == protocolID }),
            expected == nil || all[index].generation.number == expected
        else { return nil }
        _ = nextGeneration(for: protocolID)
        let cleared = all.remove(at: index)
        releases.keep(cleared)
        return cleared
    }

    /// Forgets every sticky broadcast; returns them (also kept in `releases`).
    mutating func clearAll(releasing releases: inout Releases) -> [StickyBroadcast] {
        let cleared = all
        for sticky in cleared { _ = nextGeneration(for: sticky.protocolID) }
        releases.keep(cleared)
        all = []
        return cleared
    }

    /// The generation of `protocolID`'s latest change; 0 if it never had one.
    func latestChange(for protocolID: ObjectIdentifier) -> UInt64 {
        changes[protocolID] ?? 0
    }

    /// A new generation, newer than every one given before, as the latest
    /// change of `protocolID`.
    private mutating func nextGeneration(for protocolID: ObjectIdentifier) -> UInt64 {
        recorded += 1
        changes[protocolID] = recorded
        return recorded
    }

    func latest(for protocolID: ObjectIdentifier) -> StickyBroadcast? {
        all.last { $0.protocolID == protocolID }
    }
}

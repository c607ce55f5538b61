import Synchronization

/// The room a broadcaster keeps for calls waiting on the main actor to settle
/// listeners registered with no actor (``Route/settleOnMainActor``).
///
/// Such a call may be for a listener that does not conform at all, and in a
/// program whose main actor never runs (a server whose main thread blocks)
/// it would wait forever with its payload. The calls of at most ``limit``
/// broadcasts (one job, one payload each) wait at once; a broadcast that
/// finds no room makes none of its calls of this kind, and debug builds
/// report it once per broadcaster.
struct UnsettledCallLimit: ~Copyable, Sendable {
    static let limit = 1_000

    private let waiting = Atomic<Int>(0)
    private let refusalReported = Atomic<Bool>(false)

    /// Takes room for one broadcast's calls, if there is any.
    func take() -> Bool {
        var current = waiting.load(ordering: .relaxed)
        while current < Self.limit {
            let (exchanged, found) = waiting.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// Gives back the room of one broadcast whose calls ran.
    func give() {
        waiting.subtract(1, ordering: .relaxed)
    }

    /// True the first time only: a refusal is reported once per broadcaster.
    func isFirstRefusal() -> Bool {
        !refusalReported.exchange(true, ordering: .relaxed)
    }
}

import Synchronization

/// The calls an awaitable form (`broadcastAndWait`, `postAndWait`, …) has
/// made so far, wherever each ran: its typed call is wrapped to count
/// itself.
///
/// Counting the calls themselves makes the result exact without following
/// the scheduled batches: a scheduled candidate that turns out not to
/// conform is never called, so never counted. Read after
/// ``Broadcaster/waitForScheduledDeliveries()``, whose barrier runs after
/// every batch scheduled before it, the count is final; read after a
/// cancelled wait, it is the calls made so far.
final class CallCount: Sendable {
    private let calls = Atomic<Int>(0)

    init() {}

    /// Counts one call.
    func add() {
        calls.add(1, ordering: .sequentiallyConsistent)
    }

    /// The calls counted so far.
    var value: Int {
        calls.load(ordering: .sequentiallyConsistent)
    }
}

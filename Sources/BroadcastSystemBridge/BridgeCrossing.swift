import Broadcast
import Foundation

/// One way between the two worlds: notifications named `name` on `center`
/// and the typed events of `broadcaster`.
///
/// A ``NotificationForwarder`` crosses it inwards, a ``NotificationMirror``
/// outwards. While either is crossing, synchronously on one thread, it is
/// recorded in that thread's ``BridgeCrossing/inProgress`` list; the other
/// direction refuses to cross it back on that thread. That is how a mirrored
/// notification is not forwarded back in, and a forwarded event is not
/// mirrored back out (which would hand every observer not yet converted the
/// same notification twice).
///
/// Why per thread and not in `userInfo` or a task-local value: both
/// directions run synchronously on the posting thread (forwarders observe
/// with `queue: nil`; mirrors are handlers registered from non-isolated code,
/// called inside `post`), so the thread is exactly the scope of one crossing;
/// concurrent posts on other threads are not affected; `userInfo` could only
/// mark the outward direction (an event value has nowhere to carry a mark) and
/// would show the mark to every observer; and a task-local value would be
/// inherited by tasks a listener starts, suppressing later, unrelated events.
///
/// The price of the thread as scope: while a crossing is in progress, the
/// same crossing made again on that thread from inside it (a listener of the
/// forwarded event posting another event of that type synchronously, or an
/// observer of the mirrored notification posting that name again) is taken
/// for the echo and not made.
struct BridgeCrossing: Equatable {
    let center: ObjectIdentifier
    let name: Notification.Name
    let broadcaster: ObjectIdentifier

    /// Whether this crossing is in progress on the current thread, in either
    /// direction.
    var isInProgress: Bool {
        Self.inProgress.current.contains(self)
    }

    /// Runs `body` with this crossing recorded as in progress on the current
    /// thread.
    func whileCrossing<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.inProgress.with(self, body)
    }

    private static let inProgress = ThreadStack<BridgeCrossing>(key: "BroadcastSystemBridge.crossingsInProgress")
}

import Broadcast
import Foundation
import Synchronization

/// Posts every `Event` value posted to a ``/Broadcast/Broadcaster`` as a
/// `Notification` too, for observers not yet converted, until it is stopped
/// or released.
///
/// During a migration, code that has moved to Broadcast posts typed events,
/// and code that still observes `NotificationCenter` keeps receiving them:
///
/// ```swift
/// let mirror = NotificationMirror(mirroring: ScoreChanged.self, from: broadcaster, to: .default, as: .scoreDidChange) {
///     ["score": $0.score]
/// }
/// ```
///
/// - **Lifetime.** Mirrors from `init` until ``stop()`` or until the mirror is
///   released. The mirror is a handler registered with the broadcaster; the
///   broadcaster does not keep it alive.
/// - **Threads.** The notification is posted synchronously on the thread that
///   posted the event, inside `post`, so its observers run as if that code had
///   posted it: on the main thread for an event posted on the main actor.
///   (The mirror is registered as non-isolated code, whatever the caller's
///   isolation.)
/// - **Order.** The notification is posted when the mirror's turn comes among
///   the event's listeners (registration order): listeners registered before
///   the mirror receive the event before the notification's observers run.
/// - **No loop, no double delivery.** A ``NotificationForwarder`` of the same
///   broadcaster, name and center ignores the notification this mirror is
///   posting, so it is not forwarded back in as a second event; and this
///   mirror ignores an event that such a forwarder is posting, so a
///   notification posted by code not yet converted is not posted a second
///   time. Both directions run synchronously on the posting thread, which
///   records the crossing in progress while it runs; other threads are not
///   affected. The notification itself carries no mark. (So an event of this
///   type that a listener posts synchronously while a forwarded one is being
///   delivered, on that thread, is not mirrored either.)
public final class NotificationMirror: Sendable {
    /// The name of the notifications posted.
    public let name: Notification.Name
    /// The center the notifications are posted to.
    public let notificationCenter: NotificationCenter
    /// The broadcaster whose events are mirrored.
    public let broadcaster: Broadcaster

    private let token: BroadcastToken
    private let mirrored: MirrorTally

    /// Starts posting a notification named `name` for every `Event` posted to
    /// `broadcaster`.
    ///
    /// - Parameters:
    ///   - eventType: The events to mirror.
    ///   - broadcaster: Where the events are posted.
    ///   - notificationCenter: Where the notifications are posted.
    ///   - name: The notifications' name.
    ///   - object: The notifications' sender, held weakly: once it is
    ///     released, notifications are posted with no object.
    ///   - userInfo: Makes the notification's `userInfo` from the event, on
    ///     the posting thread.
    public init<Event: Sendable>(
        mirroring eventType: Event.Type,
        from broadcaster: Broadcaster,
        to notificationCenter: NotificationCenter,
        as name: Notification.Name,
        object: (any AnyObject & Sendable)? = nil,
        userInfo: @escaping @Sendable (Event) -> [AnyHashable: Any]?
    ) {
        self.name = name
        self.notificationCenter = notificationCenter
        self.broadcaster = broadcaster
        let crossing = BridgeCrossing(
            center: ObjectIdentifier(notificationCenter), name: name, broadcaster: ObjectIdentifier(broadcaster))
        let mirrored = MirrorTally()
        self.mirrored = mirrored
        // A @Sendable handler runs inside every `post`, on the posting
        // thread, which is where the crossing is recorded and where a
        // notification's observers expect to run.
        token = broadcaster.addHandler(for: Event.self) { [weak object] event in
            guard !crossing.isInProgress else { return }
            let info = userInfo(event)
            crossing.whileCrossing {
                notificationCenter.post(name: name, object: object, userInfo: info)
            }
            mirrored.count.add(1, ordering: .relaxed)
        }
    }

    /// Whether the mirror still posts notifications: `false` once ``stop()``
    /// has been called.
    public var isMirroring: Bool {
        !token.isCancelled
    }

    /// The number of notifications posted so far.
    public var mirroredCount: Int {
        mirrored.count.load(ordering: .relaxed)
    }

    /// Stops mirroring; calling it again does nothing.
    ///
    /// No event posted after this returns is mirrored, nor is the rest of a
    /// post in flight on this thread; a post another thread has already begun
    /// may still mirror its event.
    public func stop() {
        token.cancel()
    }
}

/// The mirror's count, shared with its handler (which must not capture the
/// mirror: the mirror owns the handler's token).
private final class MirrorTally: Sendable {
    let count = Atomic<Int>(0)
}

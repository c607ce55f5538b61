import Broadcast
import Foundation
import Synchronization

/// Forwards the notifications of one name into a ``/Broadcast/Broadcaster``,
/// parsed into a typed event value or a protocol broadcast, until it is
/// stopped or released.
///
/// For notifications you do not own, or cannot convert in one go (other
/// frameworks' and SDKs' notifications, modules that still post by name):
/// observe each name once, here, and listeners receive it typed.
///
/// ```swift
/// nonisolated struct ScoreChanged: Sendable { let score: Int }
///
/// let forwarder = NotificationForwarder(
///     forwarding: .scoreDidChange, as: ScoreChanged.self, from: .default, to: broadcaster
/// ) { notification in
///     guard let score = notification.userInfo?["score"] as? Int else { return nil }  // rejected
///     return ScoreChanged(score: score)
/// }
/// ```
///
/// - **Lifetime.** Observes from `init` until ``stop()`` or until the
///   forwarder is released, which removes its observer (the center's
///   observer does not keep the forwarder alive, even while it forwards).
///   Keep it as long as the notifications should be forwarded.
///   Once ``stop()`` returns, no notification posted afterwards is forwarded
///   (a forwarding another thread has already begun may finish, and a
///   delivery it scheduled on an actor still runs).
/// - **Threads and actors.** The notification is parsed and broadcast
///   synchronously on the posting thread, inside `post`, as non-isolated code
///   broadcasting there would: listeners with no actor are called on that
///   thread before `post` returns; a listener registered on the main actor is
///   called before `post` returns when it is posted on the main thread, and
///   otherwise through a delivery scheduled on the main actor, in posting
///   order; a listener of another actor through a delivery scheduled there.
/// - **Rejection.** A notification the parse closure rejects (it returns
///   `nil` or throws) is not forwarded: it is counted in ``rejectedCount``
///   and, in debug builds, reported as a ``/Broadcast/BroadcastDiagnostic``
///   of kind `notificationRejected`, to the handler of a broadcaster made
///   with ``/Broadcast/Broadcaster/init(onDiagnostic:)`` or to standard error.
///   Forwarding goes on; nothing traps.
/// - **No loop.** A notification that a ``NotificationMirror`` of the same
///   broadcaster, name and center is posting is not forwarded back in (see
///   ``NotificationMirror``).
public final class NotificationForwarder: Sendable {
    /// The name of the notifications forwarded.
    public let name: Notification.Name
    /// The center observed.
    public let notificationCenter: NotificationCenter
    /// The broadcaster the notifications are forwarded into.
    public let broadcaster: Broadcaster

    private let observation: NotificationObservation
    private let counts = ForwardingCounts()

    /// Starts forwarding the notifications named `name` as `Event` values
    /// posted to `broadcaster`, for event listeners, handlers and streams.
    ///
    /// - Parameters:
    ///   - name: The name of the notifications to forward.
    ///   - object: Only forward notifications from this sender; `nil`
    ///     forwards them whatever their sender.
    ///   - eventType: The type of the events posted.
    ///   - notificationCenter: The center to observe.
    ///   - broadcaster: Where the events are posted.
    ///   - sticky: Whether each event is posted as the sticky `Event` (see
    ///     ``/Broadcast/Broadcaster/post(_:sticky:isolation:)``).
    ///   - fileID: Where the forwarder is created, for the debug-build report
    ///     of a rejection; leave the default.
    ///   - line: Where the forwarder is created; leave the default.
    ///   - parse: Makes the event from a notification, on the posting thread;
    ///     returns `nil` or throws to reject the notification.
    public convenience init<Event: Sendable>(
        forwarding name: Notification.Name,
        object: AnyObject? = nil,
        as eventType: Event.Type,
        from notificationCenter: NotificationCenter,
        to broadcaster: Broadcaster,
        sticky: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        parse: @escaping @Sendable (Notification) throws -> Event?
    ) {
        self.init(
            forwarding: name, object: object, from: notificationCenter, to: broadcaster, fileID: fileID, line: line,
            parse: parse
        ) { broadcaster, event in
            broadcaster.post(event, sticky: sticky, isolation: nil)
        }
    }

    /// Starts forwarding the notifications named `name`: each is parsed into
    /// a payload, which `broadcast` sends through `broadcaster`, typically by
    /// calling one of your typed broadcast methods.
    ///
    /// ```swift
    /// let forwarder = NotificationForwarder(forwarding: .scoreDidChange, from: .default, to: broadcaster) {
    ///     $0.userInfo?["score"] as? Int
    /// } broadcast: { broadcaster, score in
    ///     broadcaster.scoreChanged(score)   // broadcast(to: ScoreListener.self, with: score) { $0.scoreChanged($1) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the notifications to forward.
    ///   - object: Only forward notifications from this sender; `nil`
    ///     forwards them whatever their sender.
    ///   - notificationCenter: The center to observe.
    ///   - broadcaster: The broadcaster passed to `broadcast`.
    ///   - fileID: Where the forwarder is created, for the debug-build report
    ///     of a rejection; leave the default.
    ///   - line: Where the forwarder is created; leave the default.
    ///   - parse: Reads the payload from a notification, on the posting
    ///     thread; returns `nil` or throws to reject the notification.
    ///   - broadcast: Broadcasts the payload, on the posting thread, right
    ///     after `parse`.
    public init<Payload>(
        forwarding name: Notification.Name,
        object: AnyObject? = nil,
        from notificationCenter: NotificationCenter,
        to broadcaster: Broadcaster,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        parse: @escaping @Sendable (Notification) throws -> Payload?,
        broadcast: @escaping @Sendable (Broadcaster, Payload) -> Void
    ) {
        self.name = name
        self.notificationCenter = notificationCenter
        self.broadcaster = broadcaster
        self.observation = NotificationObservation(center: notificationCenter)
        let crossing = BridgeCrossing(
            center: ObjectIdentifier(notificationCenter), name: name, broadcaster: ObjectIdentifier(broadcaster))
        let origin = ForwarderOrigin(payload: Payload.self, fileID: fileID, line: line)
        let counts = counts
        // The observer block holds what forwarding needs, never the
        // forwarder: releasing the forwarder's last reference runs its
        // `deinit` (and stops forwarding) at once, even while another thread
        // is forwarding.
        observation.start(observing: [name], object: object) { notification in
            guard !crossing.isInProgress else { return }
            Self.forward(
                notification, to: broadcaster, crossing: crossing, counts: counts, origin: origin, parse: parse,
                broadcast: broadcast)
        }
    }

    deinit {
        observation.stop()
    }

    /// Whether the forwarder still observes its center: `false` once
    /// ``stop()`` has been called.
    public var isForwarding: Bool {
        observation.isObserving
    }

    /// The number of notifications forwarded so far.
    public var forwardedCount: Int {
        counts.forwarded.load(ordering: .relaxed)
    }

    /// The number of notifications the parse closure rejected so far (by
    /// returning `nil` or throwing).
    public var rejectedCount: Int {
        counts.rejected.load(ordering: .relaxed)
    }

    /// Stops forwarding and removes the observer; calling it again does
    /// nothing.
    ///
    /// No notification posted after this returns is forwarded. A forwarding
    /// that another thread has already begun may finish, and deliveries
    /// already scheduled on actors still run.
    public func stop() {
        observation.stop()
    }

    // MARK: - Forwarding

    private static func forward<Payload>(
        _ notification: Notification,
        to broadcaster: Broadcaster,
        crossing: BridgeCrossing,
        counts: ForwardingCounts,
        origin: ForwarderOrigin,
        parse: (Notification) throws -> Payload?,
        broadcast: (Broadcaster, Payload) -> Void
    ) {
        let payload: Payload?
        var thrown: (any Error)?
        do {
            payload = try parse(notification)
        } catch {
            payload = nil
            thrown = error
        }
        guard let payload else {
            counts.rejected.add(1, ordering: .relaxed)
            broadcaster.report(origin.rejection(of: notification, thrown: thrown))
            return
        }
        counts.forwarded.add(1, ordering: .relaxed)
        crossing.whileCrossing { broadcast(broadcaster, payload) }
    }
}

/// A forwarder's counts, shared with its observer block.
private final class ForwardingCounts: Sendable {
    let forwarded = Atomic<Int>(0)
    let rejected = Atomic<Int>(0)
}

/// What a rejection report says about the forwarder that made it.
private struct ForwarderOrigin: Sendable {
    let payloadType: String
    let fileID: String
    let line: Int

    init<Payload>(payload: Payload.Type, fileID: StaticString, line: UInt) {
        self.payloadType = String(describing: Payload.self)
        self.fileID = "\(fileID)"
        self.line = Int(line)
    }

    func rejection(of notification: Notification, thrown: (any Error)?) -> BroadcastDiagnostic {
        let reason =
            thrown.map { "its parse closure threw \(String(reflecting: $0))" } ?? "its parse closure returned nil"
        let name = notification.name.rawValue
        return BroadcastDiagnostic(
            kind: .notificationRejected, typeName: payloadType, notificationName: name, reason: reason,
            fileID: fileID, line: line,
            message: "Broadcast: a notification named \(name) was not forwarded as \(payloadType) by the forwarder "
                + "created at \(fileID):\(line): \(reason). The forwarder counts it in rejectedCount and goes on "
                + "forwarding.")
    }
}

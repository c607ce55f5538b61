import Broadcast

/// Main-actor registrations broadcast to from another thread.
///
/// The listeners are bound to the main actor (`calledOn:`); the broadcasts use the
/// README's `with:` form from another thread: each broadcast schedules its calls
/// on the main actor, and while the main actor is busy they wait there. The
/// runner measures what each waiting broadcast keeps allocated.
///
/// Only public API: `addListener(_:calledOn:)`, `broadcast(to:with:)` (through the
/// typed method of UserShapes.swift) and `waitForScheduledDeliveries()`.
public final class PendingDeliveries: @unchecked Sendable {
    // @unchecked Sendable: the listeners are only read (their counters sum
    // the deliveries once the main actor has run them all); `Broadcaster`
    // is thread-safe.
    private let broadcaster = Broadcaster()
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)

    /// Registers `listenerCount` fresh listeners bound to the main actor
    /// (`calledOn:`), so that a broadcast from elsewhere schedules their calls
    /// there. (Registered from main-actor code alone, a `Sendable` listener
    /// whose conformance is not isolated is called where the broadcast runs:
    /// nothing would wait.)
    @MainActor public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { broadcaster.addListener(listener, calledOn: MainActor.shared) }
    }

    /// Broadcasts `times` times from the calling thread, which must not be
    /// the main thread: every call is scheduled on the main actor.
    public func broadcastFromBackground(times: Int) {
        for _ in 0..<times { broadcaster.valuePostCreatedWith(post) }
    }

    /// Returns once every scheduled call has run.
    public func waitForScheduledDeliveries() async {
        await broadcaster.waitForScheduledDeliveries()
    }

    /// Deliveries made so far, summed over the listeners.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

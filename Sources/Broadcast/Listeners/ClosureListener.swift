/// A closure wrapped as an ``EventListener``, so that closure handlers travel
/// the same delivery path as objects.
///
/// Held strongly only by its ``BroadcastToken`` (or registration, or stream);
/// the broadcaster holds it weakly like any listener, so releasing the token
/// is what stops it.
final class ClosureListener<Event: Sendable>: EventListener {
    private let handler: (Event) -> Void
    /// For a handler registered with `consumingSticky: true`: the broadcaster
    /// whose sticky `Event` each sticky call takes before the handler runs.
    private let consumer: Consumer?

    /// A weak reference to the broadcaster, which holds this listener only
    /// weakly itself, and to the handler's owner, if it has one.
    private struct Consumer {
        weak var broadcaster: Broadcaster?
        let hasOwner: Bool
        weak var owner: AnyObject?
    }

    /// `owner`, for a handler that skips its calls once its owner is gone:
    /// a consuming handler takes nothing for a call it skips.
    init(
        _ handler: @escaping (Event) -> Void, consumingStickyFrom broadcaster: Broadcaster? = nil,
        owner: AnyObject? = nil
    ) {
        self.handler = handler
        self.consumer = broadcaster.map { Consumer(broadcaster: $0, hasOwner: owner != nil, owner: owner) }
    }

    func receive(_ event: Event) {
        guard let consumer else { return handler(event) }
        StickyCall.call(to: self) { call in
            guard let call else { return handler(event) }
            // A sticky call takes the state it delivers only if it runs, and
            // runs only if it takes it: the owner is alive (and held until the
            // call returns), the registration is still active, the state is
            // still kept, and no other consumer took it first.
            let owner = consumer.owner
            guard owner != nil || !consumer.hasOwner, let broadcaster = consumer.broadcaster, broadcaster.take(call)
            else { return }
            withExtendedLifetime(owner) { handler(event) }
        }
    }
}

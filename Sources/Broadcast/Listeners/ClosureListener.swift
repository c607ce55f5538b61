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
    /// weakly itself.
    private struct Consumer {
        weak var broadcaster: Broadcaster?
    }

    init(_ handler: @escaping (Event) -> Void, consumingStickyFrom broadcaster: Broadcaster? = nil) {
        self.handler = handler
        self.consumer = broadcaster.map { Consumer(broadcaster: $0) }
    }

    func receive(_ event: Event) {
        guard let consumer else { return handler(event) }
        StickyCall.generation(forCallTo: self) { generation in
            // A sticky call runs only if it takes the state it delivers: the
            // state is still kept, and no other consumer took it first.
            if let generation {
                guard let broadcaster = consumer.broadcaster,
                    broadcaster.clearSticky(of: Event.self, ifStill: generation.number) != nil
                else { return }
            }
            handler(event)
        }
    }
}

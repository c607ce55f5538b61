/// A closure handler: what every `addHandler(for:)` and `events(of:)`
/// registers, called typed by the posts of its `Event`.
///
/// It does not conform to ``EventListener``, so that no path can reach it
/// through a cast: a delivery that tried would not call it, and the suites
/// would fail.
///
/// Owned by its ``BroadcastToken`` (or registration, or stream). The entry
/// of a token's handler holds it strongly too, until the token unregisters
/// it (``ListenerEntry/heldHandler``); a stream's is held weakly, like any
/// listener.
@usableFromInline
final class ClosureListener<Event: Sendable>: EventHandler {
    private let handler: (Event) -> Void
    /// For a handler registered with `consumingSticky: true`: the broadcaster
    /// whose sticky `Event` each sticky call takes before the handler runs.
    private let consumer: StickyConsumer?

    /// `owner`, for a handler that skips its calls once its owner is gone:
    /// a consuming handler takes nothing for a call it skips.
    init(
        _ handler: @escaping (Event) -> Void, consumingStickyFrom broadcaster: Broadcaster? = nil,
        owner: AnyObject? = nil
    ) {
        self.handler = handler
        self.consumer = broadcaster.map { StickyConsumer(broadcaster: $0, owner: owner) }
        super.init(postKey: ObjectIdentifier(EventKey<Event>.self))
    }

    /// Calls the handler with `event` if it is an `Event`: the untyped call
    /// of a call scheduled on an actor or of a sticky state (a live post
    /// calls ``receive(_:)``, typed).
    ///
    /// The types are compared first, so the cast cannot fail: the runtime
    /// compares them again and copies the value. A conditional cast would
    /// look up `Optional<Event>`'s metadata on every call.
    override func receive<Posted>(posted event: Posted) {
        guard Posted.self == Event.self else { return }
        receive(event as! Event)
    }

    @usableFromInline
    func receive(_ event: Event) {
        // Outside every sticky call there is nothing to take, nor to hide
        // from the calls the handler makes in turn.
        // Compared with nil, not bound: a binding would retain the consumer on every call.
        guard consumer != nil, StickyCall.mayBeMaking, StickyCall.current != nil else { return handler(event) }
        StickyCall.call(to: self) { call in
            guard let call, let consumer else { return handler(event) }
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

/// What a consuming handler takes its sticky state from: a weak reference to
/// the broadcaster, which holds the handler only weakly itself, and to the
/// handler's owner, if it has one.
///
/// A class outside the generic ``ClosureListener``: a type nested in it
/// would be generic too, and its metadata (and its `Optional`'s) looked up
/// on every call of every handler, about 650 instructions.
private final class StickyConsumer {
    weak let broadcaster: Broadcaster?
    let hasOwner: Bool
    weak let owner: AnyObject?

    init(broadcaster: Broadcaster, owner: AnyObject?) {
        self.broadcaster = broadcaster
        self.hasOwner = owner != nil
        self.owner = owner
    }
}

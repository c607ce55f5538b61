/// An awaited closure handler as the listener table holds it, seen without
/// its event type: the post it listens to (``EventHandler/postKey``, the
/// identifier of `AwaitedPost<Event>`), and an `async` call that takes any
/// event.
///
/// An awaited post (``Broadcaster/post(awaitingEach:order:isolation:)``)
/// tells it from any other object by its class and calls it through
/// ``receive(awaited:)``, never through a cast to a protocol: a cast to a
/// constrained existential such as `any Receiver<Event>` costs about 950 ns
/// on this toolchain (see Docs/PerformanceNotes.md). A synchronous post's
/// key is never an awaited one, so it skips these handlers.
class AwaitedEventHandler: EventHandler {
    /// Handles `event` where the post calls it (on the handler's actor, if it
    /// registered on one), if it is a value of the event type its post key
    /// names (anything else is ignored).
    nonisolated(nonsending) func receive<Posted: Sendable>(awaited event: Posted) async {}
}

/// The key of the awaited handlers of `Event` values: a type nothing can be
/// an instance of, so only ``AwaitedEventHandler``s (found by their post
/// key) are ever called with it.
enum AwaitedPost<Event> {}

/// An `async` closure registered by `addAwaitedHandler`, called typed by the
/// awaited posts of its `Event`.
///
/// Held strongly only by its ``BroadcastToken``; the broadcaster holds it
/// weakly, so releasing the token is what stops it.
final class AwaitedClosureListener<Event: Sendable>: AwaitedEventHandler {
    private let handler: (Event) async -> Void

    init(_ handler: @escaping (Event) async -> Void) {
        self.handler = handler
        super.init(postKey: ObjectIdentifier(AwaitedPost<Event>.self))
    }

    /// Calls the handler with `event` if it is an `Event`: the types are
    /// compared first, so the cast cannot fail (see
    /// ``ClosureListener/receive(posted:)``).
    override nonisolated(nonsending) func receive<Posted: Sendable>(awaited event: Posted) async {
        guard Posted.self == Event.self else { return }
        await handler(event as! Event)
    }
}

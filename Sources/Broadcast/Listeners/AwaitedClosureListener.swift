/// A listener of `Event` values whose handling is asynchronous: what an
/// awaited post (``Broadcaster/post(awaitingEach:order:isolation:)``)
/// calls and awaits.
///
/// Internal: users register closures (``Broadcaster/addAwaitedHandler(for:handler:)``);
/// the protocol only gives those closures a type to broadcast to.
protocol AwaitedEventReceiver<Event>: AnyObject {
    associatedtype Event: Sendable

    /// Handles `event` where the broadcast calls it (on the handler's actor,
    /// if it registered on one), without leaving it first.
    nonisolated(nonsending) func receive(_ event: Event) async
}

/// An `async` closure wrapped as an ``AwaitedEventReceiver``, so that awaited
/// handlers travel the awaited delivery path like protocol listeners.
///
/// Held strongly only by its ``BroadcastToken``; the broadcaster holds it
/// weakly, so releasing the token is what stops it.
final class AwaitedClosureListener<Event: Sendable>: AwaitedEventReceiver {
    private let handler: (Event) async -> Void

    init(_ handler: @escaping (Event) async -> Void) {
        self.handler = handler
    }

    nonisolated(nonsending) func receive(_ event: Event) async {
        await handler(event)
    }
}

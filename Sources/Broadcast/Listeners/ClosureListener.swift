/// A closure wrapped as an ``EventListener``, so that closure handlers travel
/// the same delivery path as objects.
///
/// Held strongly only by its ``BroadcastToken`` (or registration, or stream);
/// the broadcaster holds it weakly like any listener, so releasing the token
/// is what stops it.
final class ClosureListener<Event: Sendable>: EventListener {
    private let handler: (Event) -> Void

    init(_ handler: @escaping (Event) -> Void) {
        self.handler = handler
    }

    func receive(_ event: Event) {
        handler(event)
    }
}

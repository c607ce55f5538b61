/// A listener for event values of one type.
///
/// Protocol broadcasts (``Broadcaster/broadcast(to:sticky:isolation:_:)``) suit
/// objects with several typed methods. When an event is better modelled as a
/// value (`struct UserSignedIn { let user: User }`), post the value with
/// ``Broadcaster/post(_:sticky:isolation:)`` and receive it in an object that
/// conforms to `EventListener`, in a closure
/// (``Broadcaster/addHandler(for:receivingSticky:consumingSticky:handler:)``) or in
/// a `for await` loop (``Broadcaster/events(of:bufferingPolicy:receivingSticky:)``).
/// All three are listeners in the same table, so order, threads, actors and
/// re-entrancy follow the same rules.
public protocol EventListener<Event>: AnyObject {
    /// The type of value this listener receives.
    associatedtype Event: Sendable

    /// Called once for every event posted while the listener is registered.
    func receive(_ event: Event)
}

/// The key of `Event`'s posts.
///
/// The type its ``EventListener`` objects conform to, passed as a post's
/// `P`; as an identifier (`ObjectIdentifier(EventKey<Event>.self)`), the
/// key of its index, of its closure handlers (``EventHandler/postKey``) and
/// of its sticky state. No delivery casts to it.
@usableFromInline
typealias EventKey<Event: Sendable> = any EventListener<Event>

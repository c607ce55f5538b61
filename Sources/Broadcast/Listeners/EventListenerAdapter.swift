/// A typed call to one ``EventListener`` object, made once a cast through
/// ``Conformance`` proved the object an `any EventListener<Event>` where its
/// call runs, and kept by its entry: later posts call the object through it
/// as a handler, with no cast to that constrained existential (about 950 ns
/// on this toolchain; see Docs/PerformanceNotes.md).
///
/// An ``EventHandler`` keyed by the post, so every path that routes a
/// post's handlers (live, scheduled on an actor, sticky, replayed) routes
/// it; it holds its object weakly, as the table does.
@usableFromInline
class EventListenerAdapter: EventHandler, @unchecked Sendable {
    // @unchecked Sendable: every stored property (here and in its subclass)
    // is immutable or the `weak let` to the listener, whose loads are
    // thread-safe; the listener is called only where ``HandlerRouting``
    // routes the adapter, as it routes a handler.
    /// Where the cast that made an adapter succeeded: it stands for the
    /// cast only where the cast is proven to succeed again.
    @usableFromInline
    enum Proof {
        /// With no actor, off the main queue, outside every task: no
        /// isolated conformance could be used, so the conformance holds
        /// anywhere.
        case anywhere
        /// On the actor whose ``IsolationBox`` this identifies, where the
        /// runtime's cast is definitive: it holds there (it may be isolated
        /// to that actor).
        case on(ObjectIdentifier)
    }

    let proof: Proof

    init(postKey: ObjectIdentifier, proof: Proof) {
        self.proof = proof
        super.init(postKey: postKey)
    }
}

/// The adapter of one object for posts of `Event`: its call takes the
/// event as it is, typed, so a post names this class in the caller's module
/// (`post(_:sticky:isolation:)`) and calls it with no cast of its value; the
/// object is cast to its own class only, in `callListener`, which the cast
/// that proved the conformance made (its witness table is the one found).
@usableFromInline
final class TypedEventListenerAdapter<Event: Sendable>: EventListenerAdapter, @unchecked Sendable {
    // @unchecked Sendable: as its superclass's; its properties are the
    // `weak let` and an immutable closure that captures no state, only the
    // listener's class and conformance (a metatype the compiler does not
    // know to be Sendable, though type metadata is immutable).
    private weak let listener: AnyObject?
    /// Calls an object of the listener's class, taking over its reference:
    /// a class cast, which cannot fail for the object the adapter was made for.
    private let callListener: (consuming AnyObject, Event) -> Void

    init<Listener: EventListener>(_ listener: Listener, proof: Proof) where Listener.Event == Event {
        self.listener = listener
        self.callListener = { object, event in
            guard let listener = consume object as? Listener else { return }
            listener.receive(event)
        }
        super.init(postKey: ObjectIdentifier(EventKey<Event>.self), proof: proof)
    }

    /// A live post's call: `object` is the listener the delivery loaded
    /// from the entry (the object this adapter refers to).
    @usableFromInline
    func call(_ object: consuming AnyObject, with event: Event) {
        callListener(consume object, event)
    }

    /// The untyped call, with no object loaded (a call scheduled on an
    /// actor, a sticky replay): through the adapter's own weak reference, if
    /// `event` is an `Event` (compared first, so the cast cannot fail; see
    /// ``ClosureListener/receive(posted:)``).
    override func receive<Posted>(posted event: Posted) {
        guard Posted.self == Event.self, let listener else { return }
        callListener(listener, event as! Event)
    }
}

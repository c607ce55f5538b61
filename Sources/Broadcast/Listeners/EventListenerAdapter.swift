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

/// The adapter of an object of class `Listener`, whose conformance the
/// cast found (its witness table is this type's).
final class TypedEventListenerAdapter<Listener: EventListener>: EventListenerAdapter, @unchecked Sendable {
    // @unchecked Sendable: as its superclass's; the `weak let` is its one property.
    private weak let listener: Listener?

    init(_ listener: Listener, proof: Proof) {
        self.listener = listener
        super.init(postKey: ObjectIdentifier((any EventListener<Listener.Event>).self), proof: proof)
    }

    override func receive<Posted>(posted event: Posted) {
        guard let listener else { return }
        call(listener, with: event)
    }

    /// Calls `object`, the listener a live delivery loaded from the entry
    /// (the object this adapter refers to), taking over its reference.
    override func receive<Posted>(posted event: Posted, loaded object: consuming AnyObject?) {
        guard let object = consume object else { return receive(posted: event) }
        guard let listener = consume object as? Listener else { return }
        call(listener, with: event)
    }

    /// Calls `listener` with `event` if it is a `Listener.Event`: the
    /// types are compared first, so the cast cannot fail (see
    /// ``ClosureListener/receive(posted:)``).
    @inline(__always)
    private func call<Posted>(_ listener: Listener, with event: Posted) {
        guard Posted.self == Listener.Event.self else { return }
        listener.receive(event as! Listener.Event)
    }
}

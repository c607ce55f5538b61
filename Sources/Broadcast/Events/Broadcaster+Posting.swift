extension Broadcaster {
    /// Delivers `event` to every listener of `Event` values: objects conforming
    /// to ``EventListener``, closure handlers and event streams, in
    /// registration order.
    ///
    /// The awaited ``post(awaitingEach:order:isolation:)`` reaches awaited
    /// handlers only.
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - sticky: Whether to keep `event` as the latest `Event`, so that a
    ///     handler or listener registering later can ask to receive it at once.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of calls made or scheduled.
    @inlinable
    @discardableResult
    public func post<Event: Sendable>(
        _ event: Event,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        // Inlinable so that the caller's module names the types of its own
        // `Event`, where their metadata are constants kept after the first
        // use: the key type `any EventListener<Event>`, which the library's
        // generic code looked up on every post (about 390 instructions, a
        // quarter of a post to one handler), and the classes of its closure
        // handlers and of its objects' adapters, which let each be called
        // with the post's value as it is (a cast of the value copied it,
        // about 150 instructions per call).
        // The delivery, and every cast to a protocol, stay in the library
        // (`postLive`).
        guard sticky else {
            return postLive(
                event, to: EventKey<Event>.self, from: isolation, calling: { $0.receive(event) },
                handling: { handler, loaded in
                    // Each class is compared by identity first, so its
                    // cast (which takes over the reference) cannot fail.
                    let handlerClass = ObjectIdentifier(type(of: handler))
                    if handlerClass == ObjectIdentifier(ClosureListener<Event>.self) {
                        return (consume handler as! ClosureListener<Event>).receive(event)
                    }
                    if handlerClass == ObjectIdentifier(TypedEventListenerAdapter<Event>.self) {
                        let adapter = consume handler as! TypedEventListenerAdapter<Event>
                        guard let object = consume loaded else {
                            return (adapter as EventHandler).receive(posted: event)
                        }
                        return adapter.call(consume object, with: event)
                    }
                    handler.receive(posted: event)
                }, adapting: { Self.adapter(for: $0, proof: $1) }, makingEscapingCall: { { $0.receive(event) } })
        }
        return postSticky(event, isolation: isolation)
    }

    /// A post that keeps no state, to the key type its caller named.
    ///
    /// `P` is `any EventListener<Event>`: closure handlers are
    /// called typed (``EventHandler``); objects that conform to
    /// ``EventListener`` through their adapters, or cast (`call`). The
    /// escaping forms are made only for a call scheduled on an actor, so a
    /// post made where its handlers run allocates nothing.
    @usableFromInline
    func postLive<Event: Sendable, P>(
        _ event: Event, to _: P.Type, from isolation: (any Actor)?, calling call: (P) -> Void,
        handling handle: HandlerCall, adapting adapt: Adapting<P>,
        makingEscapingCall makeCall: () -> @Sendable (P) -> Void
    ) -> Int {
        sendPost(
            to: P.self, watchedAs: Event.self, from: isolation, calling: call, handling: handle, adapting: adapt,
            makingEscaping: { EscapingCalls(makeCall(), handling: { $0.receive(posted: event) }) })
    }

    /// A sticky post: also keeps the value, for `stickyEvent(for:)`, and
    /// tells the value's observers (``StickyChangeHandler``).
    ///
    /// A function of its own, not inlined: in `post(_:sticky:isolation:)`,
    /// the metadata of `StickyEventChange<Event>` was looked up on entry, on
    /// every post, sticky or not (about 320 instructions of the 2,300 a post
    /// to one handler made).
    @inline(never)
    @usableFromInline
    func postSticky<Event: Sendable>(_ event: Event, isolation: isolated (any Actor)?) -> Int {
        let calls = Self.escapingCalls(with: event)
        let sticky = StickyBroadcast(
            for: EventKey<Event>.self, onMainActor: false, event: event,
            announcingChange: { $0.announceStickyEventChange(of: Event.self) }, handling: calls.handle, calls.call)
        let count = sendStickyPost(
            sticky, to: EventKey<Event>.self, watchedAs: Event.self, from: isolation, calling: calls.call,
            escaping: calls, adapting: { Self.adapter(for: $0, proof: $1) })
        announceStickyEventChange(of: Event.self)
        tellStickyEventChange(.set(event), isolation: isolation)
        return count
    }

    /// Keeps `event` as the sticky `Event` without delivering it now, so that
    /// handlers, listeners and streams registering later can ask for it.
    public func setStickyEvent<Event: Sendable>(_ event: Event) {
        let calls = Self.escapingCalls(with: event)
        keep(
            StickyBroadcast(
                for: EventKey<Event>.self, onMainActor: false, event: event,
                announcingChange: { $0.announceStickyEventChange(of: Event.self) }, handling: calls.handle,
                calls.call))
        announceStickyEventChange(of: Event.self)
        tellStickyEventChange(.set(event))
    }

    /// The typed call to `listener`, an object a post's cast proved an
    /// `Event` listener where `proof` says: later posts call it through this
    /// adapter, with no cast (``HandlerRouting``).
    @usableFromInline
    static func adapter<Event>(
        for listener: any EventListener<Event>, proof: EventListenerAdapter.Proof
    ) -> EventListenerAdapter {
        func adapter<Listener: EventListener>(_ listener: Listener) -> EventListenerAdapter
        where Listener.Event == Event {
            TypedEventListenerAdapter(listener, proof: proof)
        }
        return adapter(listener)
    }

    /// A post's calls, to listeners and to handlers, in the form a scheduled
    /// call or a sticky state keeps.
    private static func escapingCalls<Event: Sendable>(with event: Event) -> EscapingCalls<EventKey<Event>> {
        EscapingCalls({ $0.receive(event) }, handling: { $0.receive(posted: event) })
    }

    /// The sticky `Event`, if one is kept, read without registering anything.
    ///
    /// Like `CurrentValueSubject.value`: what a registration with
    /// `receivingSticky: true` would receive first.
    ///
    /// ```swift
    /// broadcaster.post(UserSignedIn(name: "Ada"), sticky: true)
    /// let current = broadcaster.stickyEvent(for: UserSignedIn.self)  // UserSignedIn(name: "Ada")
    /// ```
    ///
    /// - Parameter eventType: The event values to read.
    /// - Returns: The latest `Event` posted sticky or set; nil if none is kept.
    public func stickyEvent<Event: Sendable>(for eventType: Event.Type) -> Event? {
        let protocolID = ObjectIdentifier(EventKey<Event>.self)
        let sticky = storage.latestSticky(for: protocolID)
        return sticky?.value(as: Event.self)
    }

    /// Forgets the sticky `Event`, if any.
    public func clearStickyEvent<Event: Sendable>(for eventType: Event.Type) {
        _ = clearSticky(of: Event.self, ifStill: nil)
        tellStickyEventChange(StickyEventChange<Event>.cleared)
    }
}

extension StickyBroadcast {
    /// The posted value as an `Event`; nil for a protocol broadcast.
    func value<Event>(as _: Event.Type) -> Event? {
        event as? Event
    }
}

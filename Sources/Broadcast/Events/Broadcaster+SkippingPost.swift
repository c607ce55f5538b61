/// A closure handler that a post can pass over (``Broadcaster/post(_:skipping:isolation:)``).
///
/// Package access, for the PostgreSQL relay: its handler sends each event
/// posted on its broadcaster to the database, and its own posts of the events
/// it received from there must not reach that handler, while a post a listener
/// makes in reply must.
package struct SkippableHandler: @unchecked Sendable {
    // @unchecked Sendable: the handler is kept only to be compared by
    // identity with the handlers a post meets, never called or read through
    // this value; keeping it alive is what stops another handler from taking
    // its identity while a post may still name it.
    fileprivate let handler: EventHandler
}

extension Broadcaster {
    /// Registers `handler` as `addHandler(for:handler:)` does, and returns with
    /// its token the handler as a post can skip it.
    package func addSkippableHandler<Event: Sendable>(
        for _: Event.Type, handler: @escaping @Sendable (Event) -> Void
    ) -> (token: BroadcastToken, skippable: SkippableHandler) {
        let listener = ClosureListener(handler)
        let token = addClosure(listener, calledOn: nil, receivingSticky: false)
        return (token, SkippableHandler(handler: listener))
    }

    /// Posts `event` as `post(_:)` does, except to `skipped`: every other
    /// listener, in registration order, and `skipped` too for a post made
    /// inside this one.
    ///
    /// Calls each closure handler through its untyped call: the typed calls of
    /// `post(_:)` save less than the relay's decoding of an event costs.
    package func post<Event: Sendable>(
        _ event: Event, skipping skipped: SkippableHandler, isolation: isolated (any Actor)? = #isolation
    ) {
        _ = sendPost(
            to: EventKey<Event>.self, watchedAs: Event.self, from: isolation, calling: { $0.receive(event) },
            handling: { handler, _ in
                guard handler !== skipped.handler else { return }
                handler.receive(posted: event)
            }, adapting: { Self.adapter(for: $0, proof: $1) },
            makingEscaping: {
                EscapingCalls(
                    { $0.receive(event) },
                    handling: { handler in
                        guard handler !== skipped.handler else { return }
                        handler.receive(posted: event)
                    })
            })
    }
}

#if PostgresRelay
    import Broadcast

    // Every call the relay makes into Broadcast's registration API is in this
    // file, so that a change of that API's spelling is a change here only.

    extension Broadcaster {
        /// Calls `handler` with every `Event` posted, synchronously, wherever the
        /// post runs, until the returned token is cancelled or released; a post
        /// of a received event passes over it (`post(_:skipping:isolation:)`).
        ///
        /// The relay relies on "wherever the post runs": a reply that a
        /// listener posts while a received event is posted reaches the handler
        /// on the same thread, inside that post, where the relay recognises it
        /// (see `RelayCrossing`).
        func addRelayHandler<Event: Sendable>(
            for eventType: Event.Type,
            handler: @escaping @Sendable (Event) -> Void
        ) -> (token: BroadcastToken, skippable: SkippableHandler) {
            addSkippableHandler(for: eventType, handler: handler)
        }
    }
#endif

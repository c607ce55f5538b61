#if PostgresRelay
    import Broadcast

    // Every call the relay makes into Broadcast's registration API is in this
    // file, so that a change of that API's spelling is a change here only.

    extension Broadcaster {
        /// Calls `handler` with every `Event` posted, synchronously, wherever the
        /// post runs, until the returned token is cancelled or released.
        ///
        /// The relay relies on "wherever the post runs": a relay that posts a
        /// received event recognises that event in its own handler, on the same
        /// thread, inside the same `post` (see `RelayCrossing`).
        func addRelayHandler<Event: Sendable>(
            for eventType: Event.Type,
            handler: @escaping @Sendable (Event) -> Void
        ) -> BroadcastToken {
            addHandler(for: eventType, handler: handler)
        }
    }
#endif

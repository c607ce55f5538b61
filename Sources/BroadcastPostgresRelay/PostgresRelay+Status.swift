#if PostgresRelay
    extension PostgresRelay {
        /// Where a relay is in its life, for health checks
        /// (``PostgresRelay/status``).
        public enum Status: Sendable, Equatable {
            /// ``PostgresRelay/run()`` has not been called yet; events posted are
            /// kept in the outgoing buffer.
            case idle
            /// Connecting for the first time.
            case connecting
            /// Listening on every channel: events flow both ways.
            case listening
            /// The connection was lost; reconnecting. Events posted are kept in
            /// the outgoing buffer.
            case reconnecting
            /// ``PostgresRelay/run()`` returned.
            case stopped
        }
    }
#endif

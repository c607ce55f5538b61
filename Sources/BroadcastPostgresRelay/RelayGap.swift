#if PostgresRelay
    import Foundation

    /// A time during which a ``PostgresRelay`` was not listening: from the loss
    /// of its connection to the moment it listened again.
    ///
    /// PostgreSQL delivers a notification only to the sessions listening when
    /// it is committed: the events other instances sent meanwhile are read
    /// back from the table `broadcast_relay_events` and posted when the relay
    /// listens again, and those no longer kept there are reported
    /// (``RelayReport/Kind/eventsLost``).
    public struct RelayGap: Sendable, CustomStringConvertible {
        /// When the connection was found lost.
        public let start: Date
        /// When the relay listened again.
        public let end: Date
        /// How long the relay was not listening, on a monotonic clock.
        public let duration: Duration
        /// The connection attempts it took, the successful one included.
        public let attempts: Int
        /// Why the connection was lost.
        public let cause: PostgresRelayError

        /// A sentence for logs.
        public var description: String {
            "not listening for \(duration.relayDescription) "
                + "(\(attempts) connection attempts) after: \(cause)"
        }
    }
#endif

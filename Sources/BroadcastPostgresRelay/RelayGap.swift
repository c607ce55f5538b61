#if PostgresRelay
    import Foundation

    /// A time during which a ``PostgresRelay`` was not listening: from the loss
    /// of its connection to the moment it listened again.
    ///
    /// Notifications other instances sent meanwhile were not received, and will
    /// not be: PostgreSQL delivers a notification only to the sessions listening
    /// when it is committed. What a gap means is the app's to decide; a cache
    /// fed by invalidation events, for example, should drop what it holds.
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

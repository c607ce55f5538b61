#if PostgresRelay
    extension PostgresRelay {
        /// What a relay has done since it was made, for metrics and health
        /// checks (``PostgresRelay/counts``).
        public struct Counts: Sendable, Equatable {
            /// Events posted here whose `NOTIFY` the server committed.
            public let sent: Int
            /// Events received from other instances and posted here.
            public let received: Int
            /// Notifications not posted because they had been posted here
            /// already: this instance's own, which PostgreSQL delivers to every
            /// listening session, events that came back along a chain of
            /// relays, and events that arrived a second time by another route.
            public let ignoredEchoes: Int
            /// Events posted here and not sent (``RelayReport/Kind/eventTooLarge``
            /// and ``RelayReport/Kind/eventNotSent``).
            public let notSent: Int
            /// Events posted here whose statement the connection's failure
            /// interrupted, and that the relay stopped before it could send
            /// again (``RelayReport/Kind/eventMayBeLost``).
            public let mayBeLost: Int
            /// Notifications skipped (``RelayReport/Kind/payloadSkipped``).
            public let skipped: Int
            /// Gaps the relay resumed after (``RelayReport/Kind/resumed``).
            public let gaps: Int
            /// Events of other instances read back from the database after a
            /// gap, or after a number missed, and posted here (counted in
            /// ``received`` too).
            public let recovered: Int
            /// Events of other instances lost: neither received nor read back
            /// (``RelayReport/Kind/eventsLost``).
            public let lost: Int
        }
    }
#endif

#if PostgresRelay
    import PostgresNIO

    extension PostgresRelay {
        /// Where a relay connects, and its limits.
        public struct Configuration: Sendable {
            /// The server and database every instance connects to.
            ///
            /// The relay opens one connection of its own and keeps it. It
            /// creates the tables it keeps events in (`broadcast_relay_events`,
            /// and `broadcast_relay_sticky` for types relayed sticky) if they
            /// are absent, so it needs the right to create them, or them
            /// created.
            public var connection: PostgresConnection.Configuration
            /// The largest envelope, in UTF-8 bytes, the relay sends.
            ///
            /// 16 MiB (16,777,216 bytes) by default. An envelope over
            /// ``notificationLimit`` is written to the table
            /// `broadcast_relay_events` by the statement that sends a small
            /// notification naming it, and receivers read it from there, in its
            /// place among the others. A larger event is refused and reported
            /// (``RelayReport/Kind/eventTooLarge``). A type relayed with
            /// `sticky: true` is limited to ``notificationLimit``.
            public var payloadLimit = 16 << 20
            /// The largest envelope, in UTF-8 bytes, sent as its own
            /// notification.
            ///
            /// 7,999 by default, since PostgreSQL refuses payloads of 8,000
            /// bytes or more unless it was built with another block size; raise
            /// it only for such a server.
            public var notificationLimit = 7999
            /// How many events may wait to be sent, typically while the relay
            /// reconnects; a post beyond that is refused and reported
            /// (``RelayReport/Kind/eventNotSent``).
            public var outgoingCapacity = 10_000
            /// The delay before the first attempt to reconnect; it doubles with
            /// each failed attempt, up to ``maximumReconnectDelay``, and each
            /// delay is drawn at random between half of it and all of it, so
            /// that instances that lost the same server do not reconnect in step.
            public var initialReconnectDelay: Duration = .milliseconds(100)
            /// The longest delay between two attempts to reconnect.
            ///
            /// A relay that listens again after a gap also waits this much
            /// longer than ``healthCheckInterval`` for the rows of events
            /// another instance notified meanwhile and has not written yet:
            /// an instance whose connection failed with them (a server
            /// restart) writes them when it reconnects, within this delay of
            /// the server's return. Events whose rows are still missing then
            /// are reported lost (``RelayReport/Kind/eventsLost``).
            public var maximumReconnectDelay: Duration = .seconds(10)
            /// The longest time the server may go without answering: the relay
            /// asks it a question (`SELECT 1`) a quarter of the interval after
            /// each answer, and drops the connection once this long has passed
            /// since its last answer, so that a server that vanished without
            /// closing it (a network partition, a stopped host) is noticed within
            /// the interval.
            public var healthCheckInterval: Duration = .seconds(10)
            /// How long an event sent stays readable for the instances that
            /// were not listening when it was sent.
            ///
            /// Each relay keeps its envelopes in the table
            /// `broadcast_relay_events` at least this long, and at least its
            /// last ``recoveryWindowEvents`` on each channel. An instance that listens again within it posts every
            /// event it missed, once, in order; beyond it, it reports those
            /// it lost (``RelayReport/Kind/eventsLost``).
            public var recoveryWindow: Duration = .seconds(60)
            /// How many of its latest envelopes on each channel a relay keeps
            /// in the table, however old (see ``recoveryWindow``).
            public var recoveryWindowEvents = 10_000

            /// A configuration with the default limits.
            ///
            /// - Parameter connection: The server and database to connect to.
            public init(connection: PostgresConnection.Configuration) {
                self.connection = connection
            }
        }
    }
#endif

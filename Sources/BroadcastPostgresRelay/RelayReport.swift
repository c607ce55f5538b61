#if PostgresRelay
    import Foundation

    /// Something a ``PostgresRelay`` did or could not do, for logs, metrics and
    /// reactions: its connection coming and going, and every event it did not
    /// send or post.
    ///
    /// Read them from ``PostgresRelay/reports()``; the relay also logs each one.
    /// ``kind`` says what happened; the other properties carry what that kind
    /// names (each says which kinds set it).
    public struct RelayReport: Sendable, CustomStringConvertible {
        /// What happened.
        public let kind: Kind
        /// The channel concerned, for the kinds about one event or payload.
        public let channel: String?
        /// The relayed event type, as `String(reflecting:)` names it, for the
        /// kinds about one event or payload.
        public let typeName: String?
        /// Why, for every kind but ``Kind/listening``, ``Kind/resumed``,
        /// ``Kind/eventsLost`` and ``Kind/stopped``.
        public let error: PostgresRelayError?
        /// The time the relay was not listening, for ``Kind/resumed``.
        public let gap: RelayGap?
        /// How long the relay waits before it tries again, for
        /// ``Kind/connectionFailed``.
        public let retryDelay: Duration?
        /// Which events of which instance were lost, for ``Kind/eventsLost``.
        public let loss: RelayLoss?

        init(
            _ kind: Kind, channel: String? = nil, typeName: String? = nil, error: PostgresRelayError? = nil,
            gap: RelayGap? = nil, retryDelay: Duration? = nil, loss: RelayLoss? = nil
        ) {
            self.kind = kind
            self.channel = channel
            self.typeName = typeName
            self.error = error
            self.gap = gap
            self.retryDelay = retryDelay
            self.loss = loss
        }

        /// A sentence for logs.
        public var description: String {
            var parts = ["\(kind)"]
            if let typeName { parts.append(typeName) }
            if let channel { parts.append("on \"\(channel)\"") }
            if let gap { parts.append(gap.description) }
            if let loss { parts.append(loss.description) }
            if let error { parts.append(error.description) }
            if let retryDelay {
                parts.append("retrying in \(retryDelay.relayDescription)")
            }
            return parts.joined(separator: " ")
        }
    }

    extension RelayReport {
        /// What happened: one of the static members, compared with `==` or
        /// matched in a `switch`.
        ///
        /// A struct with static members, not an enum, so that a later release
        /// can add a kind without breaking a `switch` written against this one.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            private let name: String

            private init(_ name: String) {
                self.name = name
            }

            /// The kind's name, as its static member spells it.
            public var description: String { name }

            /// Connected and listening on every channel, for the first time.
            public static let listening = Kind("listening")
            /// Connecting, or starting to listen, failed; the relay tries again
            /// after ``RelayReport/retryDelay``.
            public static let connectionFailed = Kind("connectionFailed")
            /// The connection ended while the relay was listening: a gap begins.
            ///
            /// Events posted here meanwhile wait in the outgoing buffer.
            public static let connectionLost = Kind("connectionLost")
            /// Listening again after a gap, described by ``RelayReport/gap``.
            public static let resumed = Kind("resumed")
            /// An event posted here was not sent: its envelope is over the
            /// payload limit (``PostgresRelayError/payloadTooLarge(byteCount:limit:)``).
            public static let eventTooLarge = Kind("eventTooLarge")
            /// An event posted here was not sent, for the reason in
            /// ``RelayReport/error`` (it did not encode, the buffer was full, the
            /// server refused it, the relay stopped).
            public static let eventNotSent = Kind("eventNotSent")
            /// The connection failed while an event posted here was being sent:
            /// the other instances may or may not have received it.
            public static let eventMayBeLost = Kind("eventMayBeLost")
            /// Events another instance sent on the channel were neither
            /// received nor read back from the database.
            ///
            /// ``RelayReport/loss`` says which. The relay goes on with the next.
            public static let eventsLost = Kind("eventsLost")
            /// A notification on a relayed channel was not posted: it was not an
            /// envelope, or of another version, or its event did not decode.
            public static let payloadSkipped = Kind("payloadSkipped")
            /// ``PostgresRelay/run()`` returned; the relay sends and receives
            /// nothing more.
            public static let stopped = Kind("stopped")
        }
    }
#endif

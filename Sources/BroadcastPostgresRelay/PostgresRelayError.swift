#if PostgresRelay
    import PostgresNIO

    /// Why a ``PostgresRelay`` could not be made or run, did not send an event,
    /// skipped a payload, or lost its connection.
    ///
    /// Thrown by ``PostgresRelay/init(broadcaster:configuration:relaying:logger:)``
    /// and ``PostgresRelay/run()``; carried by the ``RelayReport`` of everything
    /// else, since a post or a notification has no caller to throw to.
    public enum PostgresRelayError: Error, CustomStringConvertible {
        /// A channel name PostgreSQL would not take: empty, longer than 63
        /// bytes (PostgreSQL's identifier limit), or containing `"` or NUL;
        /// or the channel of the relays' heartbeats,
        /// `broadcast_relay_heartbeat` (see ``PostgresRelay/liveInstanceIDs``).
        case invalidChannel(String, reason: String)
        /// Two relayed event types were given the same channel.
        case duplicateChannel(String)
        /// The same event type was given twice.
        case duplicateEventType(String)
        /// ``PostgresRelay/run()`` was called while running or after it returned.
        case alreadyRun

        /// The event's envelope is `byteCount` UTF-8 bytes, over the relay's
        /// `limit` (PostgreSQL refuses payloads of 8000 bytes or more by default).
        case payloadTooLarge(byteCount: Int, limit: Int)
        /// `JSONEncoder` threw when encoding the event.
        case encodingFailed(any Error)
        /// The events waiting to be sent already fill the relay's buffer
        /// (``PostgresRelay/Configuration/outgoingCapacity``), typically while
        /// it reconnects.
        case outgoingBufferFull(capacity: Int)
        /// The relay stopped before the event was sent.
        case relayStopped
        /// ``PostgresRelay/post(_:inTransactionOn:)`` was given an event of
        /// this type (its name), which the relay does not relay, or relays
        /// with `sticky: true`.
        case notRelayedInTransactions(String)
        /// The server refused the `NOTIFY`; nothing was sent.
        case serverRejected(any Error)
        /// The connection failed while the event was being sent: the server may
        /// or may not have committed it.
        case sendInterrupted(any Error)

        /// The payload is not an envelope this relay writes: not JSON, or JSON
        /// without its fields (a `NOTIFY` written by hand, another program).
        case notAnEnvelope(payload: String, underlying: any Error)
        /// The envelope is of a version this relay does not read (a newer relay).
        case unsupportedEnvelopeVersion(Int)
        /// The envelope's event does not decode as the relayed type (another
        /// version of the app, another type on the same channel).
        case eventNotDecodable(any Error)

        /// Connecting, or starting to listen, failed.
        case connectionFailed(any Error)
        /// The connection ended while the relay was listening.
        case connectionLost(any Error)

        /// A sentence for logs.
        public var description: String {
            switch self {
            case .invalidChannel(let channel, let reason):
                "The channel name \"\(channel)\" cannot be used: \(reason)."
            case .duplicateChannel(let channel):
                "Two event types are relayed on the channel \"\(channel)\"; give each its own."
            case .duplicateEventType(let typeName):
                "\(typeName) is relayed twice; relay each type once."
            case .alreadyRun:
                "run() was called more than once; a relay runs once."
            case .payloadTooLarge(let byteCount, let limit):
                "The envelope is \(byteCount) bytes, over the limit of \(limit) bytes."
            case .encodingFailed(let error):
                "Encoding the event failed: \(Self.describe(error))."
            case .outgoingBufferFull(let capacity):
                "\(capacity) events are already waiting to be sent."
            case .relayStopped:
                "The relay stopped before the event was sent."
            case .notRelayedInTransactions(let typeName):
                "\(typeName) is not relayed, or is relayed sticky; a transaction can post only a type relayed without sticky."
            case .serverRejected(let error):
                "The server refused the NOTIFY: \(Self.describe(error))."
            case .sendInterrupted(let error):
                "The connection failed while sending; the event may or may not have been delivered: "
                    + "\(Self.describe(error))."
            case .notAnEnvelope(let payload, let error):
                "The payload is not a relay envelope (\(Self.describe(error))): \(payload)"
            case .unsupportedEnvelopeVersion(let version):
                "The envelope is of version \(version); this relay reads version \(RelayEnvelopeHeader.currentVersion)."
            case .eventNotDecodable(let error):
                "The event does not decode: \(Self.describe(error))."
            case .connectionFailed(let error):
                "Connecting failed: \(Self.describe(error))."
            case .connectionLost(let error):
                "The connection was lost: \(Self.describe(error))."
            }
        }

        /// PostgresNIO describes its errors generically (so that a description
        /// cannot leak a query's values); the server's own message is safe and
        /// says what happened.
        static func describe(_ error: any Error) -> String {
            guard let error = error as? PSQLError else { return String(describing: error) }
            if let message = error.serverInfo?[.message] {
                return "\(error.code): \(message)"
            }
            if let underlying = error.underlying {
                return "\(error.code): \(underlying)"
            }
            return "\(error.code)"
        }
    }
#endif

#if PostgresRelay
    extension PostgresRelayError {
        /// Names each case of ``PostgresRelayError``, without its associated
        /// values, to switch on, count or log: `error.code == .connectionLost`.
        ///
        /// A struct with static members, not an enum, so that a later release
        /// can add a code without breaking a `switch` written against this one;
        /// its ``description`` (the member's name) is stable and fit for a metric
        /// label.
        public struct Code: Sendable, Hashable, CustomStringConvertible {
            private let name: String

            private init(_ name: String) {
                self.name = name
            }

            /// The code's name, as its static member spells it.
            public var description: String { name }

            /// ``PostgresRelayError/invalidChannel(_:reason:)``.
            public static let invalidChannel = Code("invalidChannel")
            /// ``PostgresRelayError/duplicateChannel(_:)``.
            public static let duplicateChannel = Code("duplicateChannel")
            /// ``PostgresRelayError/duplicateEventType(_:)``.
            public static let duplicateEventType = Code("duplicateEventType")
            /// ``PostgresRelayError/alreadyRun``.
            public static let alreadyRun = Code("alreadyRun")
            /// ``PostgresRelayError/payloadTooLarge(byteCount:limit:)``.
            public static let payloadTooLarge = Code("payloadTooLarge")
            /// ``PostgresRelayError/encodingFailed(_:)``.
            public static let encodingFailed = Code("encodingFailed")
            /// ``PostgresRelayError/outgoingBufferFull(capacity:)``.
            public static let outgoingBufferFull = Code("outgoingBufferFull")
            /// ``PostgresRelayError/relayStopped``.
            public static let relayStopped = Code("relayStopped")
            /// ``PostgresRelayError/notRelayedInTransactions(_:)``.
            public static let notRelayedInTransactions = Code("notRelayedInTransactions")
            /// ``PostgresRelayError/serverRejected(_:)``.
            public static let serverRejected = Code("serverRejected")
            /// ``PostgresRelayError/sendInterrupted(_:)``.
            public static let sendInterrupted = Code("sendInterrupted")
            /// ``PostgresRelayError/notAnEnvelope(payload:underlying:)``.
            public static let notAnEnvelope = Code("notAnEnvelope")
            /// ``PostgresRelayError/unsupportedEnvelopeVersion(_:)``.
            public static let unsupportedEnvelopeVersion = Code("unsupportedEnvelopeVersion")
            /// ``PostgresRelayError/eventNotDecodable(_:)``.
            public static let eventNotDecodable = Code("eventNotDecodable")
            /// ``PostgresRelayError/connectionFailed(_:)``.
            public static let connectionFailed = Code("connectionFailed")
            /// ``PostgresRelayError/connectionLost(_:)``.
            public static let connectionLost = Code("connectionLost")
        }

        /// Which case this is, without its associated values.
        public var code: Code {
            switch self {
            case .invalidChannel: .invalidChannel
            case .duplicateChannel: .duplicateChannel
            case .duplicateEventType: .duplicateEventType
            case .alreadyRun: .alreadyRun
            case .payloadTooLarge: .payloadTooLarge
            case .encodingFailed: .encodingFailed
            case .outgoingBufferFull: .outgoingBufferFull
            case .relayStopped: .relayStopped
            case .notRelayedInTransactions: .notRelayedInTransactions
            case .serverRejected: .serverRejected
            case .sendInterrupted: .sendInterrupted
            case .notAnEnvelope: .notAnEnvelope
            case .unsupportedEnvelopeVersion: .unsupportedEnvelopeVersion
            case .eventNotDecodable: .eventNotDecodable
            case .connectionFailed: .connectionFailed
            case .connectionLost: .connectionLost
            }
        }
    }
#endif

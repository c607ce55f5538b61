#if PostgresRelay
    /// An envelope exactly as ``RelayTrail`` writes it, read from its text
    /// without `JSONDecoder`: its trail, and its event's JSON as the sender
    /// encoded it.
    ///
    /// Every notification a relay receives is an envelope, its own ones too
    /// (PostgreSQL hands each to the session that sent it as well). Decoding
    /// the envelope with `JSONDecoder` cost as much again as decoding the
    /// event alone, on the path from a post on one instance to the listeners
    /// on another. A payload laid out in any other way (another key order,
    /// spaces, escapes, another version) is not read here, and is decoded
    /// whole, which also gives the error a skipped payload reports.
    struct WrittenEnvelope {
        let trail: RelayTrail
        /// The envelope's number on its channel, `n`; nil if it has none.
        let number: UInt64?
        /// Whether the event was posted in a transaction of the app's, `tx`:
        /// its number counts apart from the sender's other envelopes
        /// (``numberingSender``).
        let isTransactional: Bool
        /// The trace context of the post that sent it, `trace`; nil if it has
        /// none.
        let trace: TraceCarrier?
        /// The event's JSON; nil in the envelope of a cleared sticky state,
        /// and in the notification of an envelope kept in the table.
        let eventJSON: Substring?
        /// Whether this is the notification of an envelope too large to be
        /// one, kept in ``EventLog`` (`"stored":true`, and a number).
        let isStored: Bool

        /// Who numbered the envelope, for the receiver's account and
        /// ``EventLog``'s rows: the sender, `path`'s last instance, or, for
        /// an event posted in a transaction, that sender's transactions
        /// (``TransactionalNumbers/sender(_:)``).
        var numberingSender: String? {
            guard let sender = trail.path.last else { return nil }
            return isTransactional ? TransactionalNumbers.sender(sender) : sender
        }

        /// Reads `payload`; nil unless it is laid out as ``RelayTrail`` writes
        /// an envelope, with an `event`, `"cleared":true` or `"stored":true`.
        init?(reading payload: String) {
            var text = Substring(payload).utf8
            guard text.skip(Self.head), let sequence = text.readSequenceNumber() else { return nil }
            if text.skip(Self.numberKey) {
                guard let number = text.readSequenceNumber() else { return nil }
                self.number = number
            } else {
                number = nil
            }
            isTransactional = text.skip(Self.transactional)
            guard text.skip(Self.pathStart), let path = text.readPath(), text.skip(Self.pathEnd) else {
                return nil
            }
            if text.skip(Self.traceKey) {
                guard let object = text.readObject(), let trace = TraceCarrier(json: Substring(object)) else {
                    return nil
                }
                self.trace = trace
            } else {
                trace = nil
            }
            guard text.skip(Self.fieldSeparator) else { return nil }
            trail = RelayTrail(sequence: sequence, path: path)
            isStored = text.elementsEqual(Self.stored)
            if isStored {
                guard number != nil else { return nil }
                eventJSON = nil
            } else if text.elementsEqual(Self.cleared) {
                eventJSON = nil
            } else if text.skip(Self.eventKey), text.last == UInt8(ascii: "}") {
                eventJSON = Substring(text.dropLast())
            } else {
                return nil
            }
        }

        // What surrounds the values, as ``RelayTrail`` writes it: made once,
        // not for each notification read.
        private static let head = Array("{\"v\":\(RelayEnvelopeHeader.currentVersion),\"seq\":".utf8)
        private static let numberKey = Array(",\"n\":".utf8)
        private static let transactional = Array(",\"tx\":true".utf8)
        private static let pathStart = Array(",\"path\":[".utf8)
        private static let pathEnd = Array("]".utf8)
        private static let traceKey = Array(",\"trace\":".utf8)
        private static let fieldSeparator = Array(",".utf8)
        private static let eventKey = Array("\"event\":".utf8)
        private static let cleared = Array("\"cleared\":true}".utf8)
        private static let stored = Array("\"stored\":true}".utf8)
    }

    extension Substring.UTF8View {
        /// Drops `prefix` if the text starts with it.
        fileprivate mutating func skip(_ prefix: [UInt8]) -> Bool {
            guard starts(with: prefix) else { return false }
            self = dropFirst(prefix.count)
            return true
        }

        /// Reads a JSON number that is a `UInt64`: digits, without a leading
        /// zero.
        fileprivate mutating func readSequenceNumber() -> UInt64? {
            let digits = prefix { UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "9") }
            guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1,
                let number = UInt64(Substring(digits))
            else { return nil }
            self = dropFirst(digits.count)
            return number
        }

        /// Reads a JSON object whose values are strings, as `JSONEncoder`
        /// writes one (no spaces), up to and with its closing brace; nil,
        /// leaving the text, if it is not one.
        fileprivate mutating func readObject() -> Substring.UTF8View? {
            var rest = self
            guard rest.skip([UInt8(ascii: "{")]) else { return nil }
            if rest.skip([UInt8(ascii: "}")]) {
                defer { self = rest }
                return self[..<rest.startIndex]
            }
            while true {
                guard rest.skipString(), rest.skip([UInt8(ascii: ":")]), rest.skipString() else { return nil }
                if rest.skip([UInt8(ascii: "}")]) { break }
                guard rest.skip([UInt8(ascii: ",")]) else { return nil }
            }
            defer { self = rest }
            return self[..<rest.startIndex]
        }

        /// Drops a JSON string, its quotes and escapes included.
        fileprivate mutating func skipString() -> Bool {
            guard first == UInt8(ascii: "\"") else { return false }
            var index = self.index(after: startIndex)
            while index < endIndex {
                switch self[index] {
                case UInt8(ascii: "\\"):
                    // The escaped character is not the string's end.
                    index = self.index(after: index)
                    guard index < endIndex else { return false }
                case UInt8(ascii: "\""):
                    self = self[self.index(after: index)...]
                    return true
                default:
                    break
                }
                index = self.index(after: index)
            }
            return false
        }

        /// Reads the strings of a path up to its closing bracket, which it
        /// leaves: one or more, each of lowercase hexadecimal digits (an
        /// instance identifier), separated by commas.
        fileprivate mutating func readPath() -> [String]? {
            var path: [String] = []
            while true {
                guard first == UInt8(ascii: "\"") else { return nil }
                let digits = dropFirst().prefix {
                    (UInt8(ascii: "0") <= $0 && $0 <= UInt8(ascii: "9"))
                        || (UInt8(ascii: "a") <= $0 && $0 <= UInt8(ascii: "f"))
                }
                guard !digits.isEmpty, dropFirst(digits.count + 1).first == UInt8(ascii: "\"") else { return nil }
                path.append(String(Substring(digits)))
                self = dropFirst(digits.count + 2)
                guard first == UInt8(ascii: ",") else { break }
                self = dropFirst()
            }
            return first == UInt8(ascii: "]") ? path : nil
        }
    }
#endif

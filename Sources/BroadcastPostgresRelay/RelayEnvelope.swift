#if PostgresRelay
    /// The text a relay sends as a notification's payload: the event's JSON,
    /// wrapped with where it comes from.
    ///
    /// ```json
    /// {"v":1,"seq":42,"n":7,"path":["9f86d081884c7d65","2c26b46b68ffc68f"],"event":{"text":"Hello"}}
    /// ```
    ///
    /// - `v`: the envelope's version; a relay skips (and reports) any other.
    /// - `seq`: numbers the events the origin, `path[0]`, posted: 1 for the
    ///   first event of any relayed type posted on that broadcaster after its
    ///   first relay was made, then one more for each (the relays of one
    ///   broadcaster share the count; an event not sent keeps its number, so a
    ///   receiver may see numbers skipped); a new process starts again at 1
    ///   under a new random instance identifier. A forwarded event keeps its origin's
    ///   `seq`. With it, `path[0]` and `seq` name one event wherever it travels.
    /// - `n`: numbers the envelopes the sender, `path`'s last instance, sent on
    ///   this channel and database: 1, 2, 3…, none skipped, so that a
    ///   receiver sees which it missed, and reads them from ``EventLog``, or
    ///   reports them lost. A relay reads an envelope without it, and
    ///   checks nothing for it.
    /// - `tx`: `true` in the envelope of an event posted in a transaction of
    ///   the app's (``PostgresRelay/post(_:inTransactionOn:)``), which the
    ///   database numbers in `n` apart from the sender's other envelopes, in
    ///   the order the transactions commit (see ``TransactionalNumbers``);
    ///   absent otherwise.
    /// - `path`: the instances the event has been posted on, its origin first.
    ///   A relay never posts an event whose path names its own instance: its own
    ///   notifications come back to it (PostgreSQL delivers a notification to
    ///   every listening session, the sender's too), and relays chained through
    ///   several databases would otherwise carry an event back to where it was
    ///   posted.
    /// - `trace`: the trace context of the post that sent it, as the
    ///   instrument of swift-distributed-tracing injected it (for example
    ///   `{"traceparent":"00-…"}`); absent when the post had none
    ///   (``TraceCarrier``).
    /// - `event`: the event, as `JSONEncoder` writes it, with sorted keys.
    /// - `cleared`: `true`, in place of `event`, in the envelope of a sticky
    ///   state cleared on a type relayed with `sticky: true`
    ///   (`{"v":1,"seq":43,"path":["9f86d081884c7d65"],"cleared":true}`). A
    ///   relay that does not know the field finds no event to decode, and
    ///   skips (and reports) the payload.
    /// - `stored`: `true`, in place of `event`, in the notification of an
    ///   envelope too large to be one (over
    ///   ``PostgresRelay/Configuration/notificationLimit``): the envelope
    ///   itself, with its event, is the row of ``EventLog`` for its sender
    ///   (`path`'s last instance) and `n`, written by the statement that sends
    ///   the notification
    ///   (`{"v":1,"seq":44,"n":9,"path":["9f86d081884c7d65"],"stored":true}`).
    ///   A relay that does not know the field skips (and reports) the payload.
    struct RelayEnvelope<Event: Decodable>: Decodable {
        let v: Int
        let seq: UInt64
        let n: UInt64?
        let tx: Bool?
        let path: [String]
        let trace: [String: String]?
        let event: Event?
        let cleared: Bool?

        /// Where the event comes from.
        var trail: RelayTrail {
            RelayTrail(sequence: seq, path: path)
        }

        /// What the envelope carries: an event, or, for a cleared sticky
        /// state, nil; throws if it carries neither.
        func state() throws -> Event? {
            if cleared == true { return nil }
            guard let event else { throw MissingEvent() }
            return event
        }

        /// An envelope with neither an event nor `"cleared":true`.
        struct MissingEvent: Error, CustomStringConvertible {
            var description: String { "the envelope has no event and does not say the state is cleared" }
        }
    }

    /// The envelope without its event, to tell a payload that is no envelope at
    /// all from one whose event does not decode.
    struct RelayEnvelopeHeader: Decodable {
        /// The version this relay writes and reads.
        static let currentVersion = 1

        let v: Int
        let seq: UInt64
        let path: [String]
    }

    /// Where an event comes from: its origin's sequence number and the
    /// instances it has been posted on.
    struct RelayTrail: Sendable, Equatable {
        let sequence: UInt64
        let path: [String]

        /// The payload carrying `eventJSON` along this trail, numbered
        /// `number` on its channel (no `n` if nil), with the trace context
        /// `trace` (no `trace` if nil).
        ///
        /// Written by hand around the event's JSON, which the handler has
        /// already encoded: the instance identifiers are hexadecimal digits,
        /// which need no escaping. A receiver reads this layout without
        /// decoding the envelope (``WrittenEnvelope``).
        func payload(eventJSON: String, number: UInt64? = nil, trace: TraceCarrier? = nil) -> String {
            let (head, tail) = payload(carrying: "\"event\":\(eventJSON)", transactional: false, trace: trace)
            return head + (number.map { ",\"n\":\($0)" } ?? "") + tail
        }

        /// The notification naming the envelope numbered `number` on its
        /// channel, written along this trail to the table instead
        /// (`"stored":true`).
        func storedPayload(number: UInt64) -> String {
            let (head, tail) = payload(carrying: "\"stored\":true", transactional: false, trace: nil)
            return head + ",\"n\":\(number)" + tail
        }

        /// The payload saying, along this trail, that a sticky state was
        /// cleared.
        func clearedPayload(number: UInt64? = nil, trace: TraceCarrier? = nil) -> String {
            let (head, tail) = payload(carrying: "\"cleared\":true", transactional: false, trace: trace)
            return head + (number.map { ",\"n\":\($0)" } ?? "") + tail
        }

        /// The payload of an event posted in a transaction, in two parts
        /// that its number goes between: the database numbers it as the
        /// transaction writes it (``TransactionalNumbers``).
        func transactionalPayload(eventJSON: String, trace: TraceCarrier?) -> (head: String, tail: String) {
            let (head, tail) = payload(carrying: "\"event\":\(eventJSON)", transactional: true, trace: trace)
            return (head + ",\"n\":", tail)
        }

        /// The notification naming the envelope of an event posted in a
        /// transaction, written along this trail to the table instead
        /// (`"stored":true`), in two parts that its number goes between.
        func transactionalStoredPayload() -> (head: String, tail: String) {
            let (head, tail) = payload(carrying: "\"stored\":true", transactional: true, trace: nil)
            return (head + ",\"n\":", tail)
        }

        /// The envelope before where its number goes, and after.
        private func payload(carrying field: String, transactional: Bool, trace: TraceCarrier?) -> (String, String) {
            let path = self.path.map { "\"\($0)\"" }.joined(separator: ",")
            let tx = transactional ? ",\"tx\":true" : ""
            let traced = trace.map { ",\"trace\":\($0.json)" } ?? ""
            return (
                "{\"v\":\(RelayEnvelopeHeader.currentVersion),\"seq\":\(sequence)",
                "\(tx),\"path\":[\(path)]\(traced),\(field)}"
            )
        }
    }
#endif

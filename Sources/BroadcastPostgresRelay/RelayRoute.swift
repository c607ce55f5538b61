#if PostgresRelay
    import Broadcast

    /// One relayed event type, with its event type erased: what the relay's
    /// connection needs of it.
    protocol RelayRoute: Sendable {
        /// The channel its events travel on.
        var channel: String { get }
        /// Registers the handler that sends the events posted on the broadcaster;
        /// they are sent until the token is cancelled.
        func startSending() -> BroadcastToken
        /// Posts the event a notification on ``channel`` carries, here or, if
        /// another relay of the broadcaster is posting one on the channel, on
        /// its thread after that one (see ``DeliveryLine``).
        ///
        /// Returns, without posting it, an envelope that follows numbers of
        /// its sender the route did not take: the session reads those from
        /// ``EventLog`` and hands them, and it, to ``recover(_:missed:)``.
        func receive(_ payload: String) -> MissedEnvelopes?
        /// Whether its events are sent as a sticky state, kept in the sticky
        /// table (``StickyStateTable``) as they are sent.
        var sticky: Bool { get }
        /// Posts, or clears, the sticky state a row of the sticky table holds,
        /// read after listening, unless the broadcaster holds it already;
        /// returns once it is posted.
        func restore(_ payload: String) async
        /// The latest number taken from each sender, for a route whose
        /// envelopes are kept in ``EventLog`` (not a sticky one); nil until
        /// ``startAccount(at:marked:)``.
        var receivedNumbers: [String: UInt64]? { get }
        /// Starts counting senders' numbers from `latest`, the table's at the
        /// relay's first listen, where their marks were `marked`
        /// (``NotifiedMarks``).
        func startAccount(at latest: [String: UInt64], marked: [String: UInt64])
        /// The numbers that senders' marks, `marks`, count beyond those
        /// taken (``ReceivedNumbers/unwritten(marked:)``).
        func unwritten(marked marks: [String: UInt64]) -> [MissedEnvelopes]
        /// Posts the envelopes `rows` read back from ``EventLog``, in order,
        /// skipping those taken already and reporting the numbers none of them
        /// fills; then, for `missed`, the numbers still not taken, and the
        /// envelope that revealed them.
        func recover(_ rows: [LoggedEnvelope], missed: MissedEnvelopes?)
        /// The numbers of `sender` not taken up to `written`, the number up to
        /// which its heartbeat says its rows are written: nil if none, before
        /// the route's account starts, or for a sticky route. For a sender
        /// the route never heard from on the channel (one that started
        /// sending while this relay reconnected, whose rows were not written
        /// yet when it read the table), all of them, from the first the
        /// table keeps (``MissedEnvelopes/isFirstHeard``).
        func unread(upTo written: UInt64, from sender: String) -> MissedEnvelopes?
    }

    /// An envelope read from ``EventLog``.
    struct LoggedEnvelope: Sendable {
        let sender: String
        let number: UInt64
        let payload: String
    }

    /// Numbers of `sender` a route did not take, to read from ``EventLog``:
    /// missed, and revealed by `payload`, received after them; or, with no
    /// `payload`, up to an envelope whose notification named it in the table
    /// (`"stored":true`), up to the number a heartbeat says is written, or up
    /// to `sender`'s mark (``NotifiedMarks``).
    struct MissedEnvelopes: Sendable {
        let sender: String
        var numbers: ClosedRange<UInt64>
        let payload: String?
        /// Whether `sender` was never heard from on the channel: its account
        /// starts at the first of `numbers` the table keeps, and the numbers
        /// before are not reported lost (they may predate the relay's first
        /// listen, or be pruned).
        var isFirstHeard = false

        /// These, but for those `payloads` show received; nil if none is left.
        ///
        /// `payloads` are notifications received live: from the first number
        /// of `sender` one carries, every later one was received too, as a
        /// sender notifies its numbers in order.
        func notReceived(in payloads: [String]) -> MissedEnvelopes? {
            let firstReceived = payloads.lazy.compactMap { WrittenEnvelope(reading: $0) }
                .filter { $0.numberingSender == sender }.compactMap(\.number).min()
            guard let firstReceived, firstReceived <= numbers.upperBound else { return self }
            guard firstReceived > numbers.lowerBound else { return nil }
            var missed = self
            missed.numbers = numbers.lowerBound...firstReceived - 1
            return missed
        }
    }

    /// What every route of one relay shares.
    struct RouteContext: Sendable {
        let broadcaster: Broadcaster
        let instance: InstanceIdentity
        /// The relay the route belongs to, to tell its own posts from another
        /// relay's.
        let relay: Int
        let payloadLimit: Int
        /// The largest envelope sent as its own notification.
        let notificationLimit: Int
        let outgoing: OutgoingQueue
        let reporter: RelayReporter
    }
#endif

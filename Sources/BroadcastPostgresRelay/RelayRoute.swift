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
        func receive(_ payload: String)
        /// Whether its events are sent as a sticky state, kept in the sticky
        /// table (``StickyStateTable``) as they are sent.
        var sticky: Bool { get }
        /// Posts, or clears, the sticky state a row of the sticky table holds,
        /// read after listening, unless the broadcaster holds it already;
        /// returns once it is posted.
        func restore(_ payload: String) async
    }

    /// What every route of one relay shares.
    struct RouteContext: Sendable {
        let broadcaster: Broadcaster
        let instance: InstanceIdentity
        /// The relay the route belongs to, to tell its own posts from another
        /// relay's.
        let relay: Int
        let payloadLimit: Int
        let outgoing: OutgoingQueue
        let reporter: RelayReporter
    }
#endif

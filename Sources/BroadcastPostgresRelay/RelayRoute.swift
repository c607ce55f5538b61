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
        /// Posts the event a notification on ``channel`` carries.
        func receive(_ payload: String)
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

#if PostgresRelay
    import Broadcast
    import Logging
    import NIOConcurrencyHelpers
    import ServiceLifecycle
    import Synchronization

    /// Posts the events of chosen types, posted on this instance's broadcaster,
    /// on the broadcasters of every other instance connected to the same
    /// PostgreSQL database, over `LISTEN`/`NOTIFY`.
    ///
    /// For an app that runs as several instances behind a load balancer: a cache
    /// invalidation, a chat message for every instance's WebSocket clients, a
    /// user signed out, posted as a typed value on one instance, reach the
    /// listeners of all of them as the same typed value.
    ///
    /// ```swift
    /// let relay = try PostgresRelay(
    ///     broadcaster: broadcaster,
    ///     configuration: .init(connection: connection),
    ///     relaying: [.events(of: CacheInvalidated.self), .events(of: ChatMessage.self, channel: "chat")])
    /// try await relay.run()  // or add it to a ServiceGroup: it is a Service
    /// ```
    ///
    /// What it does:
    /// - **Typed, one type at a time.** Each `Codable & Sendable` type in
    ///   `relaying` travels as JSON on a channel of its own
    ///   (``RelayedEvents/events(of:channel:sticky:)``). An event posted here
    ///   is posted once on every other instance, as the same typed value, with
    ///   ``/Broadcast/Broadcaster/post(_:sticky:isolation:)``; it is not posted
    ///   here a second time. Received events of a type are posted in the order
    ///   they were sent; events of different types may be reordered between
    ///   them (make them one type, an enum, if their order matters).
    /// - **No echo, no loop.** Every envelope names the instances it has been
    ///   posted on. A relay posts no event whose envelope names its instance,
    ///   and sends none that it received and posted itself; a listener's reply,
    ///   posted while a received event is delivered, is sent like any post,
    ///   even one identical to that event. Two relays of one
    ///   broadcaster, connected to two databases, forward each other's events
    ///   with their path, so that a chain of databases delivers an event once to
    ///   each instance, and never back to where it was posted. An event that
    ///   arrives a second time by another route (among the last 4,096 posted
    ///   here) is not posted again, and events arriving by several routes are
    ///   posted in the order they were sent: the relays of one broadcaster
    ///   post the events they receive of a type one at a time, each where it
    ///   received them or, while another of them is posting one, after it, on
    ///   that relay's task.
    /// - **Sticky state, kept.** For a type relayed with `sticky: true`, each
    ///   change of the sticky state (a sticky post, `setStickyEvent`, a clear;
    ///   not a take, which is local) is posted sticky, or cleared, on the
    ///   receiving instances, and kept in the table `broadcast_relay_sticky`
    ///   in the statement that sends it; a relay reads it when it listens, at
    ///   start and after each gap, so that a new or resumed instance has the
    ///   state. Every instance ends on the last state committed.
    /// - **Refusals are reported.** An event whose envelope is over the payload
    ///   limit (``Configuration/payloadLimit``), that does not encode, or that
    ///   finds the outgoing buffer full is not sent, and a
    ///   ``RelayReport`` says so; a notification that is not a relay envelope or
    ///   whose event does not decode is skipped and reported. The relay goes on;
    ///   nothing traps.
    /// - **Nothing lost between live instances.** Every envelope a relay sends
    ///   is numbered on its channel (1, 2, 3…) and kept, by the statement
    ///   right after the one that sends it (before any later one), in the
    ///   table `broadcast_relay_events` for
    ///   ``Configuration/recoveryWindow`` (60 s, and at least the last 10,000
    ///   of each instance on each channel, by default). A relay that listens
    ///   again after a gap (a restart, a cut connection, a server that stopped
    ///   answering), whichever instance reconnects first, reads from the table
    ///   what it missed and posts it, once, in each sender's order, before the
    ///   events that follow; a number it receives twice is skipped.
    /// - **What is lost is told exactly.** Events it missed and can no longer
    ///   read (sent before the window, or whose statement never committed)
    ///   are reported per sending instance, with their numbers
    ///   (``RelayReport/Kind/eventsLost``, ``RelayLoss``), so that every
    ///   number of every instance heard from is received, read back, or
    ///   reported lost.
    /// - **With the app's transaction.** ``post(_:inTransactionOn:)`` posts
    ///   an event on a connection inside a transaction: every instance's
    ///   listeners, this one's included, receive it once the transaction
    ///   commits, and none if it rolls back.
    /// - **The sender's trace travels along.** The trace context of the task
    ///   that posts (`ServiceContext.current`, injected by the instrument of
    ///   swift-distributed-tracing) rides in the envelope, and the receiving
    ///   instance posts the event inside it.
    /// - **Reconnects.** After a lost connection the relay reconnects, with a
    ///   growing random delay, reports the gap (``RelayReport/Kind/resumed``)
    ///   and resumes. Events posted meanwhile wait in a bounded buffer and are
    ///   sent once it is connected again, first those whose statement the
    ///   failure interrupted (they are kept once, and skipped by receivers
    ///   that had them).
    /// - **Stops cleanly.** ``run()`` returns soon after its task is cancelled,
    ///   having closed its connection. In a `ServiceGroup`, a graceful shutdown
    ///   stops relaying new events, sends those waiting, then returns.
    ///
    /// What it does not promise:
    /// - **Not for an instance that is not running.** A relay's account starts
    ///   when it first listens: events sent before are not posted, nor
    ///   reported. Nothing is kept beyond the window: for work that must not
    ///   be lost whatever happens, or must be done once, use a queue table
    ///   (`SELECT … FOR UPDATE SKIP LOCKED`) or a transactional outbox, or a
    ///   log such as Kafka or NATS JetStream, and use the relay to say "look
    ///   now".
    /// - **Order per sender and channel.** Live, events arrive in commit
    ///   order: the order of the sending instance's posts, and between
    ///   instances the order their `NOTIFY`s committed. Events read back after
    ///   a gap are posted sender by sender, each sender's in order.
    /// - **Sticky types recover their state, not each change.** The table
    ///   `broadcast_relay_sticky` keeps the latest state; changes missed
    ///   during a gap are not posted one by one.
    /// - **Events up to 16 MiB.** An envelope over PostgreSQL's notification
    ///   limit (``Configuration/notificationLimit``, 7,999 bytes) is written
    ///   to `broadcast_relay_events` by the statement that sends a small
    ///   notification naming it, and receivers read it there, in its place
    ///   among the others; one over ``Configuration/payloadLimit`` (16 MiB by
    ///   default) is refused and reported. A type relayed sticky is limited
    ///   to the notification limit.
    public final class PostgresRelay: Service, Sendable {
        /// The broadcaster whose events are relayed.
        public let broadcaster: Broadcaster
        /// Where the relay connects, and its limits.
        public let configuration: Configuration
        /// The event types relayed.
        public let relayedEvents: [RelayedEvents]

        private let instance: InstanceIdentity
        let routes: [any RelayRoute]
        private let outgoing: OutgoingQueue
        private let reporter: RelayReporter
        let logger: Logger
        private let sendingTokens: NIOLockedValueBox<[BroadcastToken]>
        private let hasRun = Atomic<Bool>(false)
        private let liveInstances = LiveInstances()

        /// Numbers the relays of this process, for ``RelayCrossing``.
        private static let relayCount = Atomic<Int>(0)

        /// Makes a relay and starts collecting the events posted on
        /// `broadcaster`; they are sent once ``run()`` has connected.
        ///
        /// - Parameters:
        ///   - broadcaster: The broadcaster whose events are relayed, and where
        ///     received events are posted.
        ///   - configuration: Where to connect, and the relay's limits.
        ///   - events: The event types to relay, each on its own channel.
        ///   - logger: Where the relay logs its reports and postgres-nio its
        ///     connection's events. By default `Logger(label:
        ///     "BroadcastPostgresRelay")`, which logs through the handler the
        ///     program gave `LoggingSystem.bootstrap`, or, if it gave none,
        ///     through swift-log's default: standard error, at level `info`.
        /// - Throws: ``PostgresRelayError/invalidChannel(_:reason:)``,
        ///   ``PostgresRelayError/duplicateChannel(_:)`` or
        ///   ``PostgresRelayError/duplicateEventType(_:)``.
        public init(
            broadcaster: Broadcaster,
            configuration: Configuration,
            relaying events: [RelayedEvents],
            logger: Logger = Logger(label: "BroadcastPostgresRelay")
        ) throws(PostgresRelayError) {
            var channels: Set<String> = []
            var types: Set<ObjectIdentifier> = []
            for relayed in events {
                if let problem = relayed.channelProblem { throw .invalidChannel(relayed.channel, reason: problem) }
                guard channels.insert(relayed.channel).inserted else { throw .duplicateChannel(relayed.channel) }
                guard types.insert(relayed.eventType).inserted else { throw .duplicateEventType(relayed.typeName) }
            }
            self.broadcaster = broadcaster
            self.configuration = configuration
            self.relayedEvents = events
            self.logger = logger
            let instance = InstanceIdentity.of(broadcaster)
            let outgoing = OutgoingQueue(capacity: configuration.outgoingCapacity)
            let reporter = RelayReporter(logger: logger)
            let context = RouteContext(
                broadcaster: broadcaster, instance: instance,
                relay: Self.relayCount.add(1, ordering: .relaxed).newValue,
                payloadLimit: configuration.payloadLimit, notificationLimit: configuration.notificationLimit,
                outgoing: outgoing, reporter: reporter)
            let routes = events.map { $0.makeRoute(context) }
            self.instance = instance
            self.routes = routes
            self.outgoing = outgoing
            self.reporter = reporter
            self.sendingTokens = NIOLockedValueBox(routes.map { $0.startSending() })
        }

        /// This instance's identifier in envelopes, for logs: random, shared by
        /// the relays of the same broadcaster in this process.
        public var instanceID: String { instance.id }

        /// The instances whose relays are live on this relay's database: those
        /// this relay heard a heartbeat from within the last
        /// ``Configuration/healthCheckInterval``, this one included (from the
        /// moment it listens); sorted, each as its ``instanceID``.
        ///
        /// Each relay's health check, a quarter of its interval after the
        /// server's last answer, is its heartbeat: a `NOTIFY` on the channel
        /// `broadcast_relay_heartbeat` carrying its instance's identifier
        /// (and, per channel, the number up to which its rows are written),
        /// which every relay listens to. An instance whose relay has a longer
        /// interval than this one's may be missing between its heartbeats.
        public var liveInstanceIDs: [String] {
            liveInstances.heard(within: configuration.healthCheckInterval)
        }

        /// Where the relay is in its life.
        public var status: Status { reporter.status }

        /// What the relay has done since it was made.
        public var counts: Counts { reporter.counters.snapshot }

        /// Returns once the relay listens on every channel: at once if it does,
        /// or when ``run()`` has connected, or reconnected after a gap.
        ///
        /// By then the sticky state of every type relayed with `sticky: true`
        /// has been read from the database and posted (see ``RelayedEvents``).
        ///
        /// ```swift
        /// let running = Task { try await relay.run() }
        /// try await relay.listening()  // events now flow both ways
        /// ```
        ///
        /// - Throws: The ``PostgresRelayError/connectionFailed(_:)`` of the next
        ///   attempt to connect that fails first (the relay keeps trying; call
        ///   again to wait for the next attempt);
        ///   ``PostgresRelayError/relayStopped`` if the relay has stopped or stops
        ///   first; `CancellationError` if the waiting task is cancelled.
        public func listening() async throws {
            try await reporter.waitUntilListening()
        }

        /// The reports the relay makes from now on, for one consumer: its
        /// connection coming and going, and every event it did not send or post.
        ///
        /// Each call makes a new stream; a stream keeps up to 1,000 reports its
        /// consumer has not read yet, and ends once the relay has stopped. When
        /// it is full, the oldest unread report of an event or a payload is
        /// dropped to make room (read ``counts`` for totals): a report of the
        /// connection (``RelayReport/Kind/listening``, `connectionFailed`,
        /// `connectionLost`, `resumed`, `stopped`) makes room only for another
        /// when every unread report is of the connection. Every report is
        /// logged too, whether or not a stream reads it.
        public func reports() -> AsyncStream<RelayReport> {
            reporter.makeStream()
        }

        /// Connects, listens on every relayed channel, sends the events posted
        /// here and posts those received, reconnecting whenever the connection
        /// is lost, until the task is cancelled or, in a `ServiceGroup`, shut
        /// down gracefully.
        ///
        /// A relay runs once. When this returns, its connection is closed, it
        /// relays nothing more, and every event that was still waiting to be
        /// sent has been reported (``RelayReport/Kind/eventNotSent``).
        ///
        /// - Throws: ``PostgresRelayError/alreadyRun`` if called a second time;
        ///   nothing else: connection errors are reported and retried.
        public func run() async throws {
            guard !hasRun.exchange(true, ordering: .relaxed) else { throw PostgresRelayError.alreadyRun }
            reporter.status = .connecting
            await withGracefulShutdownHandler {
                await RelayConnectionLoop(
                    configuration: configuration, routes: routes, outgoing: outgoing, reporter: reporter,
                    logger: logger,
                    instanceID: instance.id, liveInstances: liveInstances
                ).run()
            } onGracefulShutdown: { [self] in
                // Sends what is waiting, then returns.
                stopSending()
                outgoing.close()
            }
            stopSending()
            for notification in outgoing.closeAndTakeAll() {
                // One whose statement was interrupted may have been delivered.
                let report =
                    if let interruption = notification.interruption {
                        RelayReport(
                            .eventMayBeLost, channel: notification.channel, typeName: notification.typeName,
                            error: .sendInterrupted(interruption))
                    } else {
                        RelayReport(
                            .eventNotSent, channel: notification.channel, typeName: notification.typeName,
                            error: .relayStopped)
                    }
                reporter.report(report)
            }
            reporter.status = .stopped
            reporter.report(RelayReport(.stopped))
            reporter.finish()
        }

        /// Stops collecting the events posted on the broadcaster.
        private func stopSending() {
            let tokens = sendingTokens.withLockedValue { tokens in
                defer { tokens = [] }
                return tokens
            }
            for token in tokens { token.cancel() }
        }
    }
#endif

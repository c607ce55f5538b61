#if PostgresRelay
    import Logging
    import PostgresNIO

    /// One connection's work: listen on every relayed channel and post what
    /// arrives, send the events posted here, and check the connection.
    struct RelaySession {
        let connection: PostgresConnection
        let routes: [any RelayRoute]
        let outgoing: OutgoingQueue
        let reporter: RelayReporter
        let logger: Logger
        let healthCheckInterval: Duration

        /// The most events sent in one statement (one round trip, one
        /// transaction).
        static let batchLimit = 100

        /// A listen that ended without an error: the connection is no longer
        /// listening, so the session ends as if it had failed.
        struct ListenEnded: Error {}

        /// The server did not answer a health check in time.
        struct HealthCheckTimedOut: Error {}

        /// Listens, calls `onListening` once every channel is listened on, then
        /// relays; returns once the outgoing queue is closed and empty (a
        /// graceful shutdown) or the task is cancelled, and throws when the
        /// connection fails.
        nonisolated(nonsending) func run(onListening: () -> Void) async throws {
            let stickyRoutes = routes.filter(\.sticky)
            if !stickyRoutes.isEmpty {
                try await connection.runToEnd(StickyStateTable.create, logger: logger)
            }
            try await listen(to: routes[...], listening: []) { listening in
                // Read once listening, at start and after each gap: a state
                // committed after the read arrives as a notification.
                try await restoreStates(of: stickyRoutes)
                onListening()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (route, notifications) in listening {
                        group.addTask {
                            for try await notification in notifications {
                                route.receive(notification.payload)
                            }
                            if !Task.isCancelled { throw ListenEnded() }
                        }
                    }
                    group.addTask { try await sendWaitingEvents() }
                    group.addTask { try await checkHealth() }
                    // The first to end, by returning or throwing, ends the rest.
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
        }

        /// Listens on the first route's channel, then on the others', and runs
        /// `body` with all of them listened on; each is unlistened when `body`
        /// returns.
        nonisolated(nonsending) private func listen(
            to routes: ArraySlice<any RelayRoute>,
            listening: [(any RelayRoute, PostgresNotificationSequence)],
            body: ([(any RelayRoute, PostgresNotificationSequence)]) async throws -> Void
        ) async throws {
            guard let route = routes.first else {
                try await body(listening)
                return
            }
            try await connection.listen(on: route.channel) { notifications in
                try await listen(to: routes.dropFirst(), listening: listening + [(route, notifications)], body: body)
            }
        }

        /// Posts, or clears, the sticky states the table keeps for `routes`.
        private func restoreStates(of routes: [any RelayRoute]) async throws {
            guard !routes.isEmpty else { return }
            let rows = try await connection.rowsToEnd(StickyStateTable.read(routes.map(\.channel)), logger: logger)
            for row in rows {
                let (channel, envelope) = try row.decode((String, String).self)
                await routes.first { $0.channel == channel }?.restore(envelope)
            }
        }

        /// Sends the waiting events in batches, in order, until the queue is
        /// closed and empty or the task is cancelled.
        private func sendWaitingEvents() async throws {
            while true {
                switch await outgoing.next(limit: Self.batchLimit) {
                case .batch(let batch):
                    try await send(batch)
                case .finished, .cancelled:
                    return
                }
            }
        }

        /// Sends `batch` in one statement; finds, one by one, the events the
        /// server refuses; throws when the connection fails, having reported
        /// the events whose statement it interrupted and put back, first in
        /// line for the next connection, those not tried yet.
        private func send(_ batch: [OutgoingNotification]) async throws {
            do {
                if batch.contains(where: \.keepsState) {
                    try await connection.runToEnd(StickyStateTable.send(batch), logger: logger)
                } else if batch.count == 1 {
                    try await connection.runToEnd(
                        "SELECT pg_notify(\(batch[0].channel), \(batch[0].payload))", logger: logger)
                } else {
                    // `unnest` yields the rows in the arrays' order, so the
                    // notifications are queued, and delivered, in posting order.
                    try await connection.runToEnd(
                        """
                        SELECT pg_notify(channel, payload) \
                        FROM unnest(\(batch.map(\.channel))::text[], \(batch.map(\.payload))::text[]) AS n(channel, payload)
                        """,
                        logger: logger)
                }
                reporter.counters.countSent(batch.count)
            } catch let error as PSQLError where ServerRefusal.isRefusal(error) {
                // Nothing of the batch was committed, and the connection is fine.
                guard batch.count > 1 else {
                    report(.eventNotSent, batch[0], .serverRejected(error))
                    return
                }
                for (index, notification) in batch.enumerated() {
                    do {
                        try await send([notification])
                    } catch {
                        outgoing.putBack(batch[(index + 1)...])
                        throw error
                    }
                }
            } catch {
                for notification in batch {
                    report(.eventMayBeLost, notification, .sendInterrupted(error))
                }
                throw error
            }
        }

        /// Asks the server a question (`SELECT 1`) a quarter of
        /// `healthCheckInterval` after its last answer, and throws, having closed
        /// the connection (which fails the question, so that this returns), once
        /// `healthCheckInterval` has passed since that answer.
        ///
        /// Counting from the last answer, not from the question, is what bounds
        /// the time to notice a server that stopped answering by the interval:
        /// it stopped after that answer. Asking early leaves a busy server three
        /// quarters of the interval to answer.
        private func checkHealth() async throws {
            var lastAnswer = ContinuousClock.now
            while true {
                try await Task.sleep(until: lastAnswer + healthCheckInterval / 4)
                let deadline = lastAnswer + healthCheckInterval
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await connection.runToEnd("SELECT 1", logger: logger)
                    }
                    group.addTask {
                        try await Task.sleep(until: deadline)
                        try? await connection.close()
                        throw HealthCheckTimedOut()
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
                lastAnswer = .now
            }
        }

        private func report(_ kind: RelayReport.Kind, _ notification: OutgoingNotification, _ error: PostgresRelayError)
        {
            reporter.report(
                RelayReport(kind, channel: notification.channel, typeName: notification.typeName, error: error))
        }
    }
#endif

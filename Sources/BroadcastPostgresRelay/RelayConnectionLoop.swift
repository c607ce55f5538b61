#if PostgresRelay
    import Foundation
    import Logging
    import PostgresNIO
    import ServiceLifecycle

    /// Connects, runs a session on the connection, and reconnects when it is
    /// lost, with a growing delay, until the task is cancelled or shut down
    /// gracefully; reports each step and the gap each loss opens.
    struct RelayConnectionLoop {
        let configuration: PostgresRelay.Configuration
        let routes: [any RelayRoute]
        let outgoing: OutgoingQueue
        let reporter: RelayReporter
        let logger: Logger
        let instanceID: String
        let liveInstances: LiveInstances

        /// A loss not yet resumed from.
        private struct Loss {
            let start = Date()
            let instant = ContinuousClock.now
            let cause: PostgresRelayError
            var attempts = 0
        }

        private var isStopping: Bool {
            Task.isCancelled || Task.isShuttingDownGracefully
        }

        func run() async {
            let backoff = ReconnectBackoff(
                initial: configuration.initialReconnectDelay, maximum: configuration.maximumReconnectDelay)
            var failedAttempts = 0
            // Sessions in a row that were lost within a second of listening: a
            // server or proxy that drops every connection gets the same growing
            // delay as one that refuses them.
            var shortSessions = 0
            var loss: Loss?
            var hasListened = false
            var connectionID = 0
            while !isStopping {
                connectionID += 1
                loss?.attempts += 1
                let connection: PostgresConnection
                do {
                    connection = try await cancelWhenGracefulShutdown { [configuration, logger, connectionID] in
                        try await PostgresConnection.connect(
                            configuration: configuration.connection, id: connectionID, logger: logger)
                    }
                } catch {
                    failedAttempts += 1
                    guard await retry(after: backoff.delay(after: failedAttempts), .connectionFailed(error)) else {
                        return
                    }
                    continue
                }
                let session = RelaySession(
                    connection: connection, routes: routes, outgoing: outgoing, reporter: reporter, logger: logger,
                    configuration: configuration, instanceID: instanceID, liveInstances: liveInstances)
                var listeningSince: ContinuousClock.Instant?
                do {
                    try await session.run {
                        listeningSince = .now
                        failedAttempts = 0
                        reporter.status = .listening
                        if let resumed = loss {
                            loss = nil
                            let gap = RelayGap(
                                start: resumed.start, end: Date(), duration: .now - resumed.instant,
                                attempts: resumed.attempts, cause: resumed.cause)
                            reporter.report(RelayReport(.resumed, gap: gap))
                        } else if !hasListened {
                            hasListened = true
                            reporter.report(RelayReport(.listening))
                        }
                    }
                    await close(connection)
                    return
                } catch {
                    await close(connection)
                    if isStopping { return }
                    if let listeningSince {
                        let cause = PostgresRelayError.connectionLost(error)
                        loss = Loss(cause: cause)
                        reporter.status = .reconnecting
                        reporter.report(RelayReport(.connectionLost, error: cause))
                        // Otherwise reconnects at once: a server restart or a
                        // dropped connection is usually over by the time it is
                        // noticed.
                        if ContinuousClock.now - listeningSince < .seconds(1) {
                            shortSessions += 1
                            guard await pause(for: backoff.delay(after: shortSessions)) else { return }
                        } else {
                            shortSessions = 0
                        }
                    } else {
                        failedAttempts += 1
                        guard await retry(after: backoff.delay(after: failedAttempts), .connectionFailed(error)) else {
                            return
                        }
                    }
                }
            }
        }

        /// Reports a failed attempt and waits `delay`; `false` if the relay is
        /// stopping meanwhile.
        private func retry(after delay: Duration, _ error: PostgresRelayError) async -> Bool {
            if isStopping { return false }
            reporter.report(RelayReport(.connectionFailed, error: error, retryDelay: delay))
            return await pause(for: delay)
        }

        /// Waits `delay`; `false` if the relay is stopping meanwhile.
        private func pause(for delay: Duration) async -> Bool {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
            } catch {
                return false
            }
            return !isStopping
        }

        private func close(_ connection: PostgresConnection) async {
            do {
                try await connection.close()
            } catch {
                // Already closed by the failure that ended the session.
                logger.debug("Closing the relay's connection: \(PostgresRelayError.describe(error))")
            }
        }
    }
#endif

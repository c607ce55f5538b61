#if PostgresRelay
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// Closes a connection whose server goes longer than `interval` without
    /// answering while the relay sets up its session (tables, `LISTEN`,
    /// reading back): the health check runs only once it listens, and a
    /// server that stopped answering would otherwise hold the setup for ever.
    ///
    /// Counted from the last answer, as the health check counts, so that a
    /// slow setup on a busy server whose every statement is answered is not
    /// cut short.
    final class SetupWatch: Sendable {
        private let interval: Duration
        private let lastAnswer = NIOLockedValueBox(ContinuousClock.now)
        private let watching: NIOLockedValueBox<Task<Void, any Error>?> = NIOLockedValueBox(nil)

        /// Starts watching `connection`.
        init(_ connection: PostgresConnection, interval: Duration, logger: Logger) {
            self.interval = interval
            let task = Task { [lastAnswer] in
                while true {
                    let deadline = lastAnswer.withLockedValue { $0 } + interval
                    try await Task.sleep(until: deadline)
                    guard lastAnswer.withLockedValue({ $0 }) + interval <= .now else { continue }
                    logger.debug("The server did not answer the relay's setup within the health-check interval")
                    try? await connection.close()
                    return
                }
            }
            watching.withLockedValue { $0 = task }
        }

        /// The server answered a statement of the setup.
        func answered() {
            let now = ContinuousClock.now
            lastAnswer.withLockedValue { $0 = now }
        }

        /// Stops watching: the setup is over.
        func stop() {
            let task = watching.withLockedValue { $0 }
            task?.cancel()
        }
    }
#endif

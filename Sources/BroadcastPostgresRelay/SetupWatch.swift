#if PostgresRelay
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// Closes a connection whose server goes longer than `interval` without
    /// answering while the relay sets up its session (tables, `LISTEN`,
    /// reading back): the health check runs only once it listens, and a
    /// server that stopped answering would otherwise hold the setup for ever.
    ///
    /// Counted from the last answer, as the health check counts, and not
    /// while the relay works on an answer (posting the events it read back),
    /// so that a slow setup on a busy machine whose every statement is
    /// answered is not cut short.
    final class SetupWatch: Sendable {
        private struct State {
            var lastAnswer = ContinuousClock.now
            var isWorking = false
        }

        private let state = NIOLockedValueBox(State())
        private let watching: NIOLockedValueBox<Task<Void, any Error>?> = NIOLockedValueBox(nil)

        /// Starts watching `connection`, looking a quarter of `interval`
        /// apart.
        init(_ connection: PostgresConnection, interval: Duration, logger: Logger) {
            let task = Task { [state] in
                while true {
                    try await Task.sleep(for: interval / 4)
                    let now = ContinuousClock.now
                    let isSilent = state.withLockedValue { !$0.isWorking && $0.lastAnswer + interval <= now }
                    guard isSilent else { continue }
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
            state.withLockedValue { $0.lastAnswer = now }
        }

        /// Runs `body`, the relay's own work on an answer, which the server's
        /// silence is not counted through.
        func whileWorking<Value>(_ body: () throws -> Value) rethrows -> Value {
            state.withLockedValue { $0.isWorking = true }
            defer {
                let now = ContinuousClock.now
                state.withLockedValue {
                    $0.isWorking = false
                    $0.lastAnswer = now
                }
            }
            return try body()
        }

        /// Stops watching: the setup is over.
        func stop() {
            let task = watching.withLockedValue { $0 }
            task?.cancel()
        }
    }
#endif

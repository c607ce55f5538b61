#if PostgresRelay
    import Logging
    import NIOCore
    import PostgresNIO

    extension PostgresConnection {
        /// The connection was closed before the query could be written.
        struct ClosedBeforeWriting: Error, CustomStringConvertible {
            var description: String { "the connection was already closed" }
        }

        /// Runs `query` and reads its rows to the end; throws when the server
        /// refuses it or the connection fails, and returns promptly, having
        /// closed the connection, when the task is cancelled.
        ///
        /// Why not `query(_:logger:) async`: postgres-nio drops a query written
        /// once the connection's channel has closed and its handlers have been
        /// removed, and never completes it; and that `query` ignores
        /// cancellation. A task that sent a batch just after the server ended
        /// the session waited for ever, and with it the session, the health
        /// check that shares its task group, and `run()`. Here the query is
        /// written on the connection's event loop, where a channel seen open
        /// keeps its handlers until the write has reached them, and the handler
        /// fails every query it holds when the connection closes; cancellation
        /// closes the connection, which fails the query, so that a server that
        /// stopped answering does not keep the task either.
        func runToEnd(_ query: PostgresQuery, logger: Logger) async throws {
            _ = try await rowsToEnd(query, logger: logger)
        }

        /// ``runToEnd(_:logger:)``, returning the rows read.
        func rowsToEnd(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
            let connection = self
            let result: EventLoopFuture<[PostgresRow]> = eventLoop.flatSubmit {
                guard !connection.isClosed else {
                    return connection.eventLoop.makeFailedFuture(ClosedBeforeWriting())
                }
                let rows: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
                return rows.map(\.rows)
            }
            return try await withTaskCancellationHandler {
                try await result.get()
            } onCancel: {
                let closed: EventLoopFuture<Void> = connection.close()
                _ = closed
            }
        }
    }
#endif

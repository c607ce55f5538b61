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
            try await writtenOnEventLoop { connection in
                let rows: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
                return rows.map(\.rows)
            }
        }

        /// Prepares `sql` as a statement of this connection's session, as
        /// ``runToEnd(_:logger:)`` runs a query.
        func prepareToEnd(_ sql: String) async throws -> PreparedQuery {
            try await writtenOnEventLoop { $0.prepare(query: sql) }
        }

        /// Runs `statement`, prepared on this connection, with `values`, as
        /// ``runToEnd(_:logger:)`` runs a query.
        ///
        /// The server parses and plans it once, when it is prepared, not for
        /// each run. A statement the server refuses throws postgres-nio's
        /// `PostgresError`, not a `PSQLError` (``ServerRefusal``).
        func runToEnd(_ statement: PreparedQuery, values: [PostgresData]) async throws {
            _ = try await writtenOnEventLoop { _ in statement.execute(values) }
        }

        /// The result of what `write` sends on this connection, written on
        /// its event loop unless the connection is closed, and awaited;
        /// cancellation closes the connection (see ``runToEnd(_:logger:)``).
        private func writtenOnEventLoop<Value: Sendable>(
            _ write: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Value>
        ) async throws -> Value {
            let connection = self
            let result: EventLoopFuture<Value> = eventLoop.flatSubmit {
                guard !connection.isClosed else {
                    return connection.eventLoop.makeFailedFuture(ClosedBeforeWriting())
                }
                return write(connection)
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

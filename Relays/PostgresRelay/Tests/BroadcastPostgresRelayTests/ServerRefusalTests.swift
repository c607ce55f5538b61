import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@testable import BroadcastPostgresRelay

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ServerRefusalTests {
    /// The server's answer to `sql` on a connection of its own: the error it
    /// fails with.
    func error(answering sql: PostgresQuery, on server: PostgresTestServer) async throws -> PSQLError {
        let connection = try await server.connect()
        var answer: PSQLError?
        do {
            try await connection.runToEnd(sql, logger: Logger(label: "test"))
        } catch let error as PSQLError {
            answer = error
        }
        try? await connection.close()
        guard let answer else { throw TimedOut(description: "the server ran \(sql.sql) without an error") }
        return answer
    }

    /// A statement the server refuses with an `ERROR` (a payload too long)
    /// is a refusal; a session the server ends while a statement runs
    /// (`FATAL`, as in a restart, a failover or `pg_terminate_backend`) is
    /// not, though both arrive as a server error.
    @Test func aRefusedStatementIsARefusalAndAnEndedSessionIsNot() async throws {
        try await withServer { server in
            let refused = try await error(answering: "SELECT pg_notify('chat', repeat('x', 9000))", on: server)
            #expect(refused.code == .server)
            #expect(ServerRefusal.isRefusal(refused))

            let ended = try await error(answering: "SELECT pg_terminate_backend(pg_backend_pid())", on: server)
            #expect(ended.code == .server)
            #expect(!ServerRefusal.isRefusal(ended))

            // The same, through a prepared statement, whose errors
            // postgres-nio throws as `PostgresError`.
            let preparedRefused = try await preparedError(answering: "SELECT pg_notify('chat', $1)", on: server)
            #expect((preparedRefused as? PostgresError).map(ServerRefusal.isRefusal) == true)
            let preparedEnded = try await preparedError(
                answering: "SELECT pg_terminate_backend(pg_backend_pid()) WHERE $1 <> ''", on: server)
            #expect((preparedEnded as? PostgresError).map(ServerRefusal.isRefusal) != true)
        }
    }

    /// The server's answer to `sql`, prepared on a connection of its own
    /// and run with a text of 9,000 bytes: the error it fails with.
    func preparedError(answering sql: String, on server: PostgresTestServer) async throws -> any Error {
        let connection = try await server.connect()
        var answer: (any Error)?
        do {
            let statement = try await connection.prepareToEnd(sql)
            let text = PostgresData(string: String(repeating: "x", count: 9000))
            try await connection.runToEnd(statement, values: [text])
        } catch {
            answer = error
        }
        try? await connection.close()
        guard let answer else { throw TimedOut(description: "the server ran \(sql) without an error") }
        return answer
    }
}

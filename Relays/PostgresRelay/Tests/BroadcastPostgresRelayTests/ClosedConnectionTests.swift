import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@testable import BroadcastPostgresRelay

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ClosedConnectionTests {
    /// What made the relay hang after a server restart: postgres-nio never
    /// answers a query written once its connection has closed, and its
    /// `query` ignores cancellation, so a task awaiting one waits for ever.
    ///
    /// The relay writes its queries through `runToEnd`, which throws
    /// instead. Should postgres-nio answer such a query one day, the first
    /// expectation fails, and `runToEnd` can be simplified.
    @Test func aQueryWrittenAfterTheConnectionClosedIsNeverAnsweredButRunToEndThrows() async throws {
        try await withServer { server in
            let connection = try await server.connect()
            try await connection.close()
            let answered = Collected<Bool>()
            let query = Task {
                _ = try? await connection.query("SELECT 1", logger: Logger(label: "test"))
                answered.append(true)
            }
            let answer = try? await answered.wait("the query's answer", within: .seconds(2)) { !$0.isEmpty }
            #expect(answer == nil, "postgres-nio answered a query written after the connection closed")
            query.cancel()
            let answerOnceCancelled = try? await answered.wait("the cancelled query's end", within: .seconds(1)) {
                !$0.isEmpty
            }
            #expect(answerOnceCancelled == nil, "postgres-nio ended a query on cancellation")

            await #expect(throws: PostgresConnection.ClosedBeforeWriting.self) {
                try await connection.runToEnd("SELECT 1", logger: Logger(label: "test"))
            }
        }
    }
}

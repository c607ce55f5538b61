import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

/// A relay whose database user may not create in its default schema, even
/// where another instance created the tables already: each attempt to
/// connect is reported failed with the server's reason, and the relay keeps
/// trying.
@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct PermissionTests {
    @Test func aRelayWhoseUserMayNotCreateItsSequencesReportsEachAttemptFailed() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            try await first.waitUntilListening()
            try await first.stop()
            // PostgreSQL 15 grants no one `CREATE` on `public` by default.
            try await execute("CREATE ROLE limited LOGIN", on: server)
            try await execute(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO limited", on: server)

            let limited = try RelayInstance("limited", server: server) {
                RecoveryTests.quick(&$0)
                $0.connection.username = "limited"
            }
            let reports = try await limited.reports.wait("two attempts failed") { reports in
                reports.filter { $0.kind == .connectionFailed }.count >= 2
            }
            let failure = try #require(reports.first { $0.kind == .connectionFailed })
            // The README quotes it.
            #expect(
                "\(failure)".contains("Connecting failed: server: permission denied for schema public."),
                "\(failure)")
            #expect(limited.relay.status == .connecting)
            try await limited.stop()
        }
    }
}

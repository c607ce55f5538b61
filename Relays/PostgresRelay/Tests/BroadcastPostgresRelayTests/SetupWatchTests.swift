import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct SetupWatchTests {
    /// A setup statement the server does not answer (here, one waiting on a
    /// lock another session holds) ends the connection once the
    /// health-check interval has passed since the server's last answer; the
    /// relay reports the failed attempt, tries again, and listens once the
    /// statement can run.
    @Test func aSetupTheServerDoesNotAnswerIsGivenUpAndTriedAgain() async throws {
        try await withServer { server in
            let holder = try await server.connect()
            let logger = Logger(label: "test")
            do {
                // The lock the relay takes to create its table.
                try await holder.query("SELECT pg_advisory_lock(hashtext('broadcast_relay_events'))", logger: logger)
                let relay = try RelayInstance("waiting", server: server) {
                    $0.healthCheckInterval = .milliseconds(300)
                    $0.initialReconnectDelay = .milliseconds(50)
                    $0.maximumReconnectDelay = .milliseconds(200)
                }
                try await relay.reports.wait("the setup given up", within: .seconds(5)) { reports in
                    reports.contains { $0.kind == .connectionFailed }
                }
                #expect(relay.relay.status != .listening)
                try await holder.query("SELECT pg_advisory_unlock(hashtext('broadcast_relay_events'))", logger: logger)
                try await relay.waitUntilListening()
                try await relay.stop()
            } catch {
                try? await holder.close()
                throw error
            }
            try await holder.close()
        }
    }
}

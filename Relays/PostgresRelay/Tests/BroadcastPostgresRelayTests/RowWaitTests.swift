import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// A sender writes its rows a moment after their notifications: a receiver
/// that missed a number, and receives a later one live before the missed
/// one's row is written, waits for the row instead of reporting it lost.
@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct RowWaitTests {
    /// The test plays the sender, by hand: its notifications and its rows.
    static let sender = "abcdef0123456789"

    static func notify(_ number: Int, on server: PostgresTestServer) async throws {
        let envelope =
            "{\"v\":1,\"seq\":\(number),\"n\":\(number),\"path\":[\"\(sender)\"],"
            + "\"event\":{\"number\":\(number),\"text\":\"by hand\"}}"
        try await execute("SELECT pg_notify('chat', '\(envelope)')", on: server)
    }

    @Test func aReceiverWaitsForTheRowOfANumberItMissedInsteadOfReportingItLost() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.connection.username = "receiver"
            }
            try await receiver.waitUntilListening()
            try await Self.notify(1, on: server)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await execute("ALTER ROLE receiver NOLOGIN", on: server)
            try await execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
            try await eventually("the receiver reconnecting") { receiver.relay.status == .reconnecting }
            // Missed, its row not written yet.
            try await Self.notify(2, on: server)
            try await execute("ALTER ROLE receiver LOGIN", on: server)
            try await eventually("the receiver listening again") {
                receiver.relay.counts.gaps == 1 && receiver.relay.status == .listening
            }
            try await Self.notify(3, on: server)
            // The receiver read the rows of number 2, and found none.
            try await eventually("the receiver reading the missed row") {
                let reads = try? await TransactionTests.rows(
                    on: server,
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE usename = 'receiver' AND query LIKE '%number BETWEEN%'
                    """
                ) { try $0.decode(Int64.self) }
                return reads == [1]
            }
            #expect(receiver.numbers == [1])
            let envelope =
                "{\"v\":1,\"seq\":2,\"n\":2,\"path\":[\"\(Self.sender)\"],"
                + "\"event\":{\"number\":2,\"text\":\"by hand\"}}"
            try await execute(
                "INSERT INTO broadcast_relay_events (channel, sender, number, envelope) "
                    + "VALUES ('chat', '\(Self.sender)', 2, '\(envelope)')",
                on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            #expect(received.map(\.number) == [1, 2, 3])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 1)
            try await receiver.stop()
        }
    }
}

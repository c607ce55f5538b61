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

    static func notify(_ number: Int, from sender: String = sender, on server: PostgresTestServer) async throws {
        try await execute("SELECT pg_notify('chat', '\(envelope(number, from: sender))')", on: server)
    }

    static func envelope(_ number: Int, from sender: String) -> String {
        "{\"v\":1,\"seq\":\(number),\"n\":\(number),\"path\":[\"\(sender)\"],"
            + "\"event\":{\"number\":\(number),\"text\":\"by hand\"}}"
    }

    static func writeRow(_ number: Int, from sender: String, on server: PostgresTestServer) async throws {
        try await execute(
            "INSERT INTO broadcast_relay_events (channel, sender, number, envelope) "
                + "VALUES ('chat', '\(sender)', \(number), '\(envelope(number, from: sender))')",
            on: server)
    }

    /// How many times the receiver's session read missed rows from the table.
    static func readsOfMissedRows(on server: PostgresTestServer) async -> [Int64]? {
        try? await TransactionTests.rows(
            on: server,
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE usename = 'receiver' AND query LIKE '%number BETWEEN%'
            """
        ) { try $0.decode(Int64.self) }
    }

    /// A relay that waits long for a missed row: a test that passes does
    /// not reach it.
    static func patient(_ configuration: inout PostgresRelay.Configuration) {
        RecoveryTests.quick(&configuration)
        configuration.healthCheckInterval = .seconds(30)
        configuration.connection.username = "receiver"
    }

    /// A sender that started while the receiver reconnected is first heard
    /// of live, at its number 3; its rows of 1 and 2 are read from the
    /// table, 2 once written, and posted before 3.
    @Test func aSenderFirstHeardFromLiveAboveOneHasItsEarlierEventsReadFromTheTable() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server, configure: Self.patient)
            try await receiver.waitUntilListening()
            let newcomer = "0123456789abcdef"
            // Number 1 was notified while the receiver did not listen, and
            // its row written; number 2's row is not written yet.
            try await Self.writeRow(1, from: newcomer, on: server)
            try await Self.notify(3, from: newcomer, on: server)
            try await eventually("the receiver reading the rows before 3") {
                await Self.readsOfMissedRows(on: server) == [1]
            }
            #expect(receiver.numbers.isEmpty)
            try await Self.writeRow(2, from: newcomer, on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            #expect(received.map(\.number) == [1, 2, 3])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 2)
            try await receiver.stop()
        }
    }

    /// A sender first heard of live above 1 with no earlier row in the
    /// table (they were pruned, or sent before the receiver first
    /// listened): its event is posted within moments, not after the
    /// receiver's `healthCheckInterval`, and nothing is reported lost.
    @Test func aSenderFirstHeardFromLiveWithNoEarlierRowIsNotWaitedFor() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server, configure: Self.patient)
            try await receiver.waitUntilListening()
            try await Self.notify(7, from: "fedcba9876543210", on: server)
            try await Self.notify(8, from: "fedcba9876543210", on: server)

            let received = try await receiver.messages.wait("the events", within: .seconds(5)) { $0.count >= 2 }
            #expect(received.map(\.number) == [7, 8])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 0)
            try await receiver.stop()
        }
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
                await Self.readsOfMissedRows(on: server) == [1]
            }
            #expect(receiver.numbers == [1])
            try await Self.writeRow(2, from: Self.sender, on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            #expect(received.map(\.number) == [1, 2, 3])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 1)
            try await receiver.stop()
        }
    }
}

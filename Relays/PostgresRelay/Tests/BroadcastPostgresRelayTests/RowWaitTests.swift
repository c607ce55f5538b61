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
            let receiver = try RelayInstance("receiver", server: server, configure: Self.patient)
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

    /// Disconnects the receiver (its role may not log in meanwhile), has
    /// the test's sender notify `number` (unless `notifying` is false) and
    /// advance its mark to it, its row not written, then lets the receiver
    /// back and waits until it has read the table for that row once.
    static func markWhileAway(
        _ number: Int, notifying: Bool = true, receiver: RelayInstance, on server: PostgresTestServer
    ) async throws {
        try await execute("ALTER ROLE receiver NOLOGIN", on: server)
        try await execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
        try await eventually("the receiver reconnecting") { receiver.relay.status == .reconnecting }
        if notifying { try await notify(number, on: server) }
        let sequence = "broadcast_relay_mark_\(sender)"
        try await execute("CREATE UNLOGGED SEQUENCE IF NOT EXISTS \(sequence)", on: server)
        try await execute("SELECT setval('\(sequence)', \(number))", on: server)
        try await execute(
            "INSERT INTO broadcast_relay_marks (channel, sender, sequence) "
                + "VALUES ('chat', '\(sender)', '\(sequence)') ON CONFLICT DO NOTHING",
            on: server)
        try await execute("ALTER ROLE receiver LOGIN", on: server)
        try await eventually("the receiver reading the missed row") {
            await readsOfMissedRows(on: server) == [1]
        }
    }

    /// A receiver back after a gap finds its sender's mark above the rows
    /// written: the numbers between were notified while it was away, and
    /// it waits for their rows instead of reporting them lost.
    @Test func aReceiverBackAfterAGapWaitsForTheRowsOfTheNumbersItsSendersMarkCounts() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server, configure: Self.patient)
            try await receiver.waitUntilListening()
            try await Self.notify(1, on: server)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await Self.markWhileAway(2, receiver: receiver, on: server)
            #expect(receiver.numbers == [1])
            try await Self.writeRow(2, from: Self.sender, on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 2 }
            #expect(received.map(\.number) == [1, 2])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 1)
            try await receiver.stop()
        }
    }

    /// The rows of numbers a mark counts are waited for longer than
    /// `healthCheckInterval`: as long again as the sender's reconnect may
    /// take (`maximumReconnectDelay`), since a sender whose connection
    /// failed with them unwritten writes them once it reconnects.
    @Test func theRowsAMarkCountsAreWaitedForAsLongAsTheSendersReconnectMayTake() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.healthCheckInterval = .seconds(2)
                $0.maximumReconnectDelay = .seconds(4)
                $0.connection.username = "receiver"
            }
            try await receiver.waitUntilListening()
            try await Self.notify(1, on: server)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await Self.markWhileAway(2, receiver: receiver, on: server)
            // Past the receiver's `healthCheckInterval`, well within the
            // wait's 6 s.
            try await Task.sleep(for: .seconds(3))
            #expect(receiver.relay.counts.lost == 0 && receiver.numbers == [1])
            try await Self.writeRow(2, from: Self.sender, on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 2 }
            #expect(received.map(\.number) == [1, 2])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.recovered == 1)
            try await receiver.stop()
        }
    }

    /// While the sender whose mark counts numbers not written is heard
    /// (its heartbeats), the receiver waits for their rows, past the wait
    /// a silent sender gets; then reports lost those still missing once
    /// it is silent that long.
    @Test func aSendersHeartbeatsKeepTheWaitForTheRowsItsMarkCountsGoing() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.healthCheckInterval = .seconds(2)
                $0.maximumReconnectDelay = .milliseconds(200)
                $0.connection.username = "receiver"
            }
            try await receiver.waitUntilListening()
            try await Self.notify(1, on: server)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await Self.markWhileAway(3, receiver: receiver, on: server)
            // Twice the 2.2 s a silent sender is waited for.
            let heard = ContinuousClock.now + .seconds(4.4)
            while ContinuousClock.now < heard {
                try await execute("SELECT pg_notify('broadcast_relay_heartbeat', '\(Self.sender)')", on: server)
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(receiver.relay.counts.lost == 0 && receiver.numbers == [1])
            try await Self.writeRow(2, from: Self.sender, on: server)

            let lost = try await receiver.reports.wait("number 3 reported lost", within: .seconds(5)) {
                $0.contains { $0.kind == .eventsLost }
            }.compactMap(\.loss)
            #expect(lost.map(\.numbers) == [3...3])
            #expect(receiver.numbers == [1, 2])
            #expect(receiver.relay.counts.lost == 1 && receiver.relay.counts.recovered == 1)
            try await receiver.stop()
        }
    }

    /// A mark moves as its statement runs, before the notifications it
    /// counts commit: a receiver that read it then receives those live,
    /// while it waits for their rows, and reports none of them lost when
    /// the wait ends without them.
    @Test func numbersAMarkCountsThatArriveLiveDuringTheWaitAreReceivedNotReportedLost() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.healthCheckInterval = .seconds(2)
                $0.maximumReconnectDelay = .milliseconds(200)
                $0.connection.username = "receiver"
            }
            try await receiver.waitUntilListening()
            try await Self.notify(1, on: server)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await Self.markWhileAway(3, notifying: false, receiver: receiver, on: server)
            try await Self.notify(2, on: server)
            try await Self.notify(3, on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            #expect(received.map(\.number) == [1, 2, 3])
            #expect(receiver.relay.counts.lost == 0 && receiver.relay.counts.received == 3, "\(receiver.relay.counts)")
            try await receiver.stop()
        }
    }
}

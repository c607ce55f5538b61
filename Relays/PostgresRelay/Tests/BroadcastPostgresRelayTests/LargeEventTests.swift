import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// Events too large for a notification travel in the table, named by a
/// small notification: delivered among the others, in order, once, intact;
/// read back like any event after a gap.
@Suite(.needsPostgres, .serialized, .timeLimit(.minutes(1))) struct LargeEventTests {
    /// A text of `count` bytes that differs along its length, so that a
    /// piece lost or moved shows.
    static func text(_ count: Int, seed: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<count).map { alphabet[($0 / 7 + seed) % alphabet.count] })
    }

    static let sizes = [10, 100_000, 20, 1_000_000, 30, 100_000, 40]

    /// Events of 100 kB and 1 MB among small ones, posted at once: both
    /// receivers get each once, in order, intact.
    @Test func largeEventsAmongSmallOnesArriveInOrderOnceAndIntactAtTwoReceivers() async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server)
            let receivers = try ["first", "second"].map { try RelayInstance($0, server: server) }
            for instance in [sender] + receivers { try await instance.waitUntilListening() }
            let sent = Self.sizes.enumerated().map { ChatMessage(number: $0, text: Self.text($1, seed: $0)) }
            for message in sent { sender.broadcaster.post(message, isolation: nil) }
            for receiver in receivers {
                let received = try await receiver.messages.wait("\(receiver.name): every event") {
                    $0.count >= sent.count
                }
                #expect(received.map(\.number) == Array(0..<sent.count), "\(receiver.name)")
                #expect(received == sent, "\(receiver.name): an event differs")
                #expect(receiver.relay.counts.lost == 0)
            }
            #expect(sender.relay.counts.sent == sent.count && sender.relay.counts.notSent == 0)
            for instance in [sender] + receivers { try await instance.stop() }
        }
    }

    /// A receiver away while large and small events are sent reads them
    /// back when it listens again, in order, intact.
    @Test func aLargeEventMissedWhileAwayIsReadBack() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let sender = try RelayInstance("sender", server: server, configure: RecoveryTests.quick)
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.connection.username = "receiver"
            }
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            sender.post(0)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await execute("ALTER ROLE receiver NOLOGIN", on: server)
            try await execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
            try await eventually("the receiver reconnecting") { receiver.relay.status == .reconnecting }
            let missed = [1_000_000, 10, 100_000].enumerated().map {
                ChatMessage(number: $0 + 1, text: Self.text($1, seed: $0))
            }
            for message in missed { sender.broadcaster.post(message, isolation: nil) }
            try await eventually("the events' rows written") {
                (try? await RecoveryTests.rowCount(on: server)) == 4
            }
            try await execute("ALTER ROLE receiver LOGIN", on: server)

            let received = try await receiver.messages.wait("every event") { $0.count >= 4 }
            #expect(received.map(\.number) == [0, 1, 2, 3])
            #expect(Array(received.dropFirst()) == missed)
            #expect(receiver.relay.counts.recovered == 3 && receiver.relay.counts.lost == 0)
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// A receiver that listens again after a gap while the rows of the
    /// events it missed are not written yet (their notifications went out
    /// first) reads them once its sender's heartbeat says they are; also
    /// those of a sender it first hears of then, which sent its first event
    /// during the gap.
    @Test func rowsWrittenAfterAReceiverListensAgainAreReadOnTheSendersHeartbeat() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let (sender, newcomer) = try (
                RelayInstance("sender", server: server) {
                    RecoveryTests.quick(&$0)
                    $0.healthCheckInterval = .seconds(2)
                },
                RelayInstance("newcomer", server: server) {
                    RecoveryTests.quick(&$0)
                    $0.healthCheckInterval = .seconds(2)
                }
            )
            let receiver = try RelayInstance("receiver", server: server) {
                RecoveryTests.quick(&$0)
                $0.connection.username = "receiver"
            }
            try await sender.waitUntilListening()
            try await newcomer.waitUntilListening()
            try await receiver.waitUntilListening()
            sender.post(0)
            try await receiver.messages.wait("the first event") { $0.count == 1 }

            try await execute("ALTER ROLE receiver NOLOGIN", on: server)
            try await execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
            try await eventually("the receiver reconnecting") { receiver.relay.status == .reconnecting }
            // Held by a transaction of the test's: rows cannot be written
            // (reading them still can), notifications still go out.
            let blocker = try await server.connect()
            do {
                try await blocker.query("BEGIN", logger: Self.logger).consume()
                try await blocker.query(
                    "LOCK TABLE broadcast_relay_events IN EXCLUSIVE MODE", logger: Self.logger
                ).consume()
                // One event each: a statement notifying a second could also
                // write the first's row, and wait.
                sender.post(1)
                newcomer.post(100)
                try await eventually("the notifications sent") {
                    sender.relay.counts.sent == 2 && newcomer.relay.counts.sent == 1
                }
                try await execute("ALTER ROLE receiver LOGIN", on: server)
                try await eventually("the receiver listening again") {
                    receiver.relay.counts.gaps == 1 && receiver.relay.status == .listening
                }
                #expect(receiver.messages.all.count == 1)
                try await blocker.query("COMMIT", logger: Self.logger).consume()
            } catch {
                try? await blocker.close()
                throw error
            }
            try await blocker.close()

            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            // Two senders, read on two heartbeats: in either order.
            #expect(received.map(\.number).sorted() == [0, 1, 100])
            #expect(receiver.relay.counts.recovered == 2 && receiver.relay.counts.lost == 0)
            for instance in [sender, newcomer, receiver] { try await instance.stop() }
        }
    }

    static let logger = Logger(label: "test")
}

extension PostgresRowSequence {
    /// Reads every row, for a statement run for its effect.
    func consume() async throws {
        for try await _ in self {}
    }
}

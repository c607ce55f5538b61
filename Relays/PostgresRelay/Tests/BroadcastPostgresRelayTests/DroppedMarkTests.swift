import Broadcast
import BroadcastPostgresRelay
import PostgresNIO
import RelayTestSupport
import Testing

/// A mark's sequence dropped by hand (`DROP SEQUENCE`) stops no event: its
/// sender's statements advance no mark until it connects again, which
/// creates the sequence anew.
@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct DroppedMarkTests {
    /// Each sequence listed in `broadcast_relay_marks`, and the latest
    /// number it counts (nil if absent, or never advanced); sorted by name.
    static func marks(on server: PostgresTestServer) async throws -> [(exists: Bool, notified: Int64?)] {
        try await TransactionTests.rows(
            on: server,
            """
            SELECT to_regclass(sequence) IS NOT NULL, pg_sequence_last_value(to_regclass(sequence))
            FROM broadcast_relay_marks ORDER BY sequence
            """
        ) { try $0.decode((Bool, Int64?).self) }
        .map { (exists: $0.0, notified: $0.1) }
    }

    @Test func eventsAreSentWithTheirMarkDroppedAndTheMarkIsCreatedAgainOnReconnecting() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE sender LOGIN SUPERUSER", on: server)
            // The health check at its default (10 s): a relay that
            // reconnects creates its mark again, and only the sender's cut
            // connection may.
            let sender = try RelayInstance("sender", server: server) {
                $0.initialReconnectDelay = .milliseconds(50)
                $0.connection.username = "sender"
            }
            let receiver = try RelayInstance("receiver", server: server)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            sender.post(1)
            try await receiver.messages.wait("the first event") { $0.count == 1 }
            #expect(try await Self.marks(on: server).map(\.notified).contains(1))

            let names = try await TransactionTests.rows(on: server, "SELECT sequence FROM broadcast_relay_marks") {
                try $0.decode(String.self)
            }
            #expect(names.count == 2, "one per instance and channel")
            for name in names { try await execute("DROP SEQUENCE \(name)", on: server) }
            sender.post(2)
            try await receiver.messages.wait("the event sent with its mark dropped") { $0.count == 2 }
            #expect(try await Self.marks(on: server).allSatisfy { !$0.exists })

            try await execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'sender'", on: server)
            try await eventually("the sender listening again") {
                sender.relay.counts.gaps == 1 && sender.relay.status == .listening
            }
            sender.post(3)
            let received = try await receiver.messages.wait("every event") { $0.count >= 3 }
            #expect(received.map(\.number) == [1, 2, 3])
            let marks = try await Self.marks(on: server)
            #expect(marks.filter(\.exists).count == 1, "the sender's, created again")
            #expect(marks.compactMap(\.notified) == [3])
            #expect(sender.relay.counts.notSent == 0 && sender.relay.counts.mayBeLost == 0, "\(sender.relay.counts)")
            #expect(receiver.relay.counts.lost == 0, "\(receiver.relay.counts)")
            try await sender.stop()
            try await receiver.stop()
        }
    }
}

import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// Events posted with the app's own transaction: delivered when it commits,
/// never if it rolls back, numbered so that no receiver reports a loss.
@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct TransactionTests {
    static let logger = Logger(label: "test")

    /// Thrown from a transaction's closure to roll it back.
    struct RollBack: Error {}

    /// A rolled-back transaction sends nothing and takes no number: the next
    /// committed one is number 1, and no instance reports a loss; nor does
    /// an event too large for a notification, whose row the transaction
    /// wrote.
    @Test func anEventPostedInATransactionThatRollsBackReachesNoInstanceAndTakesNoNumber() async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server)
            let receiver = try RelayInstance("receiver", server: server)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            try await withConnection(to: server) { app in
                await #expect(throws: PostgresTransactionError.self) {
                    try await app.withTransaction(logger: Self.logger) { connection in
                        try await sender.relay.post(
                            ChatMessage(number: 1, text: "rolled back"), inTransactionOn: connection)
                        try await sender.relay.post(
                            ChatMessage(number: 1, text: LargeEventTests.text(100_000, seed: 1)),
                            inTransactionOn: connection)
                        throw RollBack()
                    }
                }
                try await app.withTransaction(logger: Self.logger) { connection in
                    try await sender.relay.post(ChatMessage(number: 2, text: "committed"), inTransactionOn: connection)
                }
            }

            for instance in [sender, receiver] {
                let received = try await instance.messages.wait("\(instance.name): the committed event") {
                    !$0.isEmpty
                }
                #expect(received.map(\.number) == [2], "\(instance.name)")
            }
            // A later event, committed after it: had the rolled-back event
            // been sent, it would have arrived before this one.
            receiver.post(3)
            try await sender.messages.wait("the later event") { $0.last?.number == 3 }
            #expect(sender.numbers == [2, 3])
            #expect(try await Self.transactionalNumbers(on: server) == [1])
            for instance in [sender, receiver] {
                #expect(instance.relay.counts.lost == 0, "\(instance.name)")
                #expect(!instance.reports.all.contains { $0.kind == .eventsLost }, "\(instance.name)")
            }
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// Committed events reach every instance once, in order, the sender's
    /// own listeners included, and none of them before the commit; one of
    /// 100 kB among them, too large for a notification, too, intact.
    @Test func anEventPostedInATransactionReachesEveryInstanceOnceWhenItCommits() async throws {
        try await withServer { server in
            let instances = try ["first", "second", "third"].map { try RelayInstance($0, server: server) }
            for instance in instances { try await instance.waitUntilListening() }
            let (sender, other) = (instances[0], instances[1])
            let committed = [
                ChatMessage(number: 1, text: "committed"),
                ChatMessage(number: 2, text: LargeEventTests.text(100_000, seed: 2)),
                ChatMessage(number: 3, text: "committed too"),
            ]
            try await withConnection(to: server) { app in
                try await app.withTransaction(logger: Self.logger) { connection in
                    for message in committed { try await sender.relay.post(message, inTransactionOn: connection) }
                    // The posts returned: the events are written, not committed.
                    for instance in instances { #expect(instance.messages.all.isEmpty, "\(instance.name)") }
                }
            }
            for instance in instances {
                let received = try await instance.messages.wait("\(instance.name): the committed events") {
                    $0.count == committed.count
                }
                #expect(received == committed, "\(instance.name)")
            }
            // Committed after them: a second delivery of one would come
            // before this one.
            other.post(4)
            for instance in instances {
                let received = try await instance.messages.wait("\(instance.name): the later event") {
                    $0.last?.number == 4
                }
                #expect(received.map(\.number) == [1, 2, 3, 4], "\(instance.name)")
                #expect(instance.relay.counts.lost == 0, "\(instance.name)")
            }
            #expect(sender.relay.counts.received == 4)
            #expect(sender.relay.counts.sent == 0)
            for instance in instances { try await instance.stop() }
        }
    }

    /// A second transaction posting on the channel waits for the first to
    /// end: it takes the first's number if that one rolled back, the next if
    /// it committed; receivers get the numbers in order, and report no loss.
    @Test func aTransactionPostingWhileAnotherHoldsTheNumberWaitsForItsEnd() async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server)
            let receiver = try RelayInstance("receiver", server: server)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            try await withConnection(to: server) { first in
                try await withConnection(to: server) { second in
                    for (number, firstCommits) in [(1, false), (3, true)] {
                        try await Self.run("BEGIN", on: first)
                        try await sender.relay.post(ChatMessage(number: number, text: "first"), inTransactionOn: first)
                        let waiting = Task {
                            try await second.withTransaction(logger: Self.logger) { connection in
                                try await sender.relay.post(
                                    ChatMessage(number: number + 1, text: "second"), inTransactionOn: connection)
                            }
                        }
                        try await eventually("the second transaction waiting for the first", within: .seconds(10)) {
                            (try? await Self.sessionsWaitingForALock(on: server)) == 1
                        }
                        try await Self.run(firstCommits ? "COMMIT" : "ROLLBACK", on: first)
                        try await waiting.value
                    }
                }
            }
            let received = try await receiver.messages.wait("the committed events") { $0.count == 3 }
            #expect(received.map(\.number) == [2, 3, 4])
            try await sender.messages.wait("the committed events, here") { $0.count == 3 }
            #expect(sender.numbers == [2, 3, 4])
            #expect(try await Self.transactionalNumbers(on: server) == [1, 2, 3])
            for instance in [sender, receiver] {
                #expect(instance.relay.counts.lost == 0, "\(instance.name)")
                #expect(!instance.reports.all.contains { $0.kind == .eventsLost }, "\(instance.name)")
            }
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// Transactions on several connections at once, a third of them rolled
    /// back: every committed event arrives once at each instance, in the
    /// order of its number, and none is reported lost.
    @Test func transactionsAtOnceDeliverEveryCommittedEventInNumberOrderAndNoLoss() async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server)
            let receiver = try RelayInstance("receiver", server: server)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            let connections = 4
            let perConnection = 6
            let committed = try await withThrowingTaskGroup(of: [Int].self) { group in
                for connectionIndex in 0..<connections {
                    group.addTask {
                        try await withConnection(to: server) { app in
                            var committed: [Int] = []
                            for index in 0..<perConnection {
                                let number = connectionIndex * 100 + index
                                let rollsBack = (connectionIndex + index) % 3 == 0
                                do {
                                    try await app.withTransaction(logger: Self.logger) { connection in
                                        try await sender.relay.post(
                                            ChatMessage(number: number, text: "at once"), inTransactionOn: connection)
                                        if rollsBack { throw RollBack() }
                                    }
                                    committed.append(number)
                                } catch let error as PostgresTransactionError where error.closureError is RollBack {}
                            }
                            return committed
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let expectedCount = committed.count
            #expect(expectedCount == 16)
            let inNumberOrder = try await Self.transactionalEvents(on: server)
            #expect(inNumberOrder.map(\.number) == Array(1...UInt64(expectedCount)))
            #expect(Set(inNumberOrder.map(\.event)) == Set(committed))
            for instance in [sender, receiver] {
                let received = try await instance.messages.wait("\(instance.name): every committed event") {
                    $0.count >= expectedCount
                }
                #expect(received.map(\.number) == inNumberOrder.map(\.event), "\(instance.name)")
                #expect(instance.relay.counts.lost == 0, "\(instance.name)")
            }
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// An event committed while an instance's relay was away, the sender's
    /// own included, is read back when it listens again.
    @Test func anEventCommittedWhileARelayWasAwayIsReadBackThereTheSendersToo() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE away LOGIN SUPERUSER", on: server)
            let quick: (inout PostgresRelay.Configuration) -> Void = {
                $0.connection.username = "away"
                $0.initialReconnectDelay = .milliseconds(50)
                $0.maximumReconnectDelay = .milliseconds(400)
            }
            let sender = try RelayInstance("sender", server: server, configure: quick)
            let receiver = try RelayInstance("receiver", server: server, configure: quick)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()

            try await execute("ALTER ROLE away NOLOGIN", on: server)
            try await execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'away'", on: server)
            try await eventually("both relays reconnecting") {
                sender.relay.status == .reconnecting && receiver.relay.status == .reconnecting
            }
            // The app's connection is another user's.
            try await withConnection(to: server) { app in
                try await app.withTransaction(logger: Self.logger) { connection in
                    try await sender.relay.post(ChatMessage(number: 1, text: "while away"), inTransactionOn: connection)
                }
            }
            try await execute("ALTER ROLE away LOGIN", on: server)

            for instance in [sender, receiver] {
                let received = try await instance.messages.wait("\(instance.name): the event read back") {
                    !$0.isEmpty
                }
                #expect(received.map(\.number) == [1], "\(instance.name)")
                #expect(instance.relay.counts.recovered == 1, "\(instance.name)")
                #expect(instance.relay.counts.lost == 0, "\(instance.name)")
            }
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// A type the relay does not relay, or relays sticky, is refused, as is
    /// any post once the relay has stopped; the transaction is untouched.
    @Test func aTypeNotRelayedOrStickyAndAStoppedRelayAreRefused() async throws {
        try await withServer { server in
            let instance = try RelayInstance("instance", server: server)
            try await instance.waitUntilListening()
            try await withConnection(to: server) { app in
                try await app.withTransaction(logger: Self.logger) { connection in
                    await #expect {
                        try await instance.relay.post(1, inTransactionOn: connection)
                    } throws: { error in
                        guard case .notRelayedInTransactions(let typeName) = error as? PostgresRelayError else {
                            return false
                        }
                        return typeName == "Swift.Int"
                    }
                    await #expect {
                        try await instance.relay.post(OnlineUsers(names: ["ada"]), inTransactionOn: connection)
                    } throws: { ($0 as? PostgresRelayError)?.code == .notRelayedInTransactions }
                }
                try await instance.stop()
                await #expect {
                    try await instance.relay.post(ChatMessage(number: 1, text: ""), inTransactionOn: app)
                } throws: { ($0 as? PostgresRelayError)?.code == .relayStopped }
            }
        }
    }

    /// Runs `body` with a connection of its own to `server`, closed
    /// whatever `body` does: postgres-nio traps on a connection released
    /// open.
    func withConnection<Value: Sendable>(
        to server: PostgresTestServer, _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let connection = try await server.connect()
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static func run(_ sql: String, on connection: PostgresConnection) async throws {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        for try await _ in rows {}
    }

    /// How many of the server's sessions wait for a lock.
    static func sessionsWaitingForALock(on server: PostgresTestServer) async throws -> Int {
        try await rows(on: server, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") {
            Int(try $0.decode(Int64.self))
        }.first ?? 0
    }

    /// The numbers of the transactional events in `broadcast_relay_events`,
    /// in order.
    static func transactionalNumbers(on server: PostgresTestServer) async throws -> [UInt64] {
        try await transactionalEvents(on: server).map(\.number)
    }

    /// The transactional events in `broadcast_relay_events`: each number,
    /// in order, with its message's number.
    static func transactionalEvents(on server: PostgresTestServer) async throws -> [(number: UInt64, event: Int)] {
        try await rows(
            on: server,
            """
            SELECT number, (envelope::json -> 'event' ->> 'number')::int8 FROM broadcast_relay_events
            WHERE envelope::json ->> 'tx' = 'true' ORDER BY number
            """
        ) {
            let (number, event) = try $0.decode((Int64, Int64).self)
            return (UInt64(number), Int(event))
        }
    }

    static func rows<Value>(
        on server: PostgresTestServer, _ sql: String, _ read: (PostgresRow) throws -> Value
    ) async throws -> [Value] {
        let connection = try await server.connect()
        do {
            var values: [Value] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {
                values.append(try read(row))
            }
            try await connection.close()
            return values
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

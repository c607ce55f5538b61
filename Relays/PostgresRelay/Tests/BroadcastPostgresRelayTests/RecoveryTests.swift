import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// Events sent while an instance was not listening are read back from the
/// database when it listens again, and posted once, in order; those no
/// longer kept are reported, exactly.
@Suite(.needsPostgres, .serialized, .timeLimit(.minutes(2))) struct RecoveryTests {
    /// Quick to notice a lost connection and to reconnect; a buffer that
    /// holds what is posted during a restart.
    static func quick(_ configuration: inout PostgresRelay.Configuration) {
        configuration.outgoingCapacity = 200_000
        configuration.healthCheckInterval = .milliseconds(500)
        configuration.initialReconnectDelay = .milliseconds(50)
        configuration.maximumReconnectDelay = .milliseconds(400)
    }

    /// An event every millisecond, the server restarted twice 1.5 s apart,
    /// two receivers, the sender retrying sooner than they do, so that it
    /// sends what it holds before they listen again: every event the sender
    /// counts as sent arrives once, in order, at both.
    ///
    /// After a crash (`-m immediate`) the rows committed in the server's last
    /// moments may be missing from the table (the relay commits without
    /// waiting for the disk): an event a receiver had not received then is
    /// reported lost, by number, and every event is received or reported,
    /// never both, never twice.
    @Test(arguments: [PostgresTestServer.ShutdownMode.fast, .immediate])
    func everyEventSentArrivesOnceInOrderAtEveryReceiverAcrossTwoRestarts(
        _ mode: PostgresTestServer.ShutdownMode
    ) async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server) {
                Self.quick(&$0)
                $0.initialReconnectDelay = .milliseconds(10)
                $0.maximumReconnectDelay = .milliseconds(40)
            }
            let receivers = try ["first receiver", "second receiver"].map { name in
                try RelayInstance(name, server: server) {
                    Self.quick(&$0)
                    $0.initialReconnectDelay = .milliseconds(300)
                    $0.maximumReconnectDelay = .milliseconds(600)
                }
            }
            let instances = [sender] + receivers
            for instance in instances { try await instance.waitUntilListening() }
            let load = PostingLoad(on: sender, every: .milliseconds(1))
            for receiver in receivers {
                try await receiver.messages.wait("\(receiver.name): events flowing") { $0.count > 100 }
            }
            let firstRestart = ContinuousClock.now
            try await server.restart(mode)
            // The scenario's pace, not a wait for an outcome.
            try await Task.sleep(until: firstRestart + .milliseconds(1500))
            try await server.restart(mode)
            for instance in instances {
                try await eventually("\(instance.name) listening again") {
                    instance.relay.counts.gaps >= 1 && instance.relay.status == .listening
                }
            }
            for receiver in receivers {
                let before = receiver.messages.all.count
                try await receiver.messages.wait("\(receiver.name): events flowing again") {
                    $0.count > before + 100
                }
            }
            let posted = await load.stop()
            try await eventually("every event posted accounted for") {
                let counts = sender.relay.counts
                return counts.sent + counts.notSent + counts.mayBeLost >= posted
            }
            let counts = sender.relay.counts
            #expect(counts.sent == posted, "posted \(posted), counts \(counts)")
            sender.post(posted, text: "after the restarts")
            for receiver in receivers {
                let received = try await receiver.messages.wait("\(receiver.name): the last event") {
                    $0.last?.number == posted
                }
                // The sender's envelopes on the channel are numbered from 1:
                // event k is number k + 1. Every loss counted is read from
                // the report stream, which its reader may get after the
                // events.
                let lostCount = receiver.relay.counts.lost
                let reports = try await receiver.reports.wait("\(receiver.name)'s loss reports") { reports in
                    reports.compactMap(\.loss).reduce(0) { $0 + $1.count } == lostCount
                }
                let lost = reports.compactMap(\.loss).flatMap { loss in
                    loss.instanceID == sender.relay.instanceID ? loss.numbers.map { Int($0) - 1 } : [-1]
                }
                if mode == .fast { #expect(lost.isEmpty, "\(receiver.name)") }
                let numbers = received.map(\.number)
                #expect(
                    (numbers + lost).sorted() == Array(0...posted) && numbers.sorted() == numbers,
                    "\(receiver.name): lost \(lost); \(Self.differences(numbers, 0...posted))")
            }
            for instance in instances { try await instance.stop() }
        }
    }

    /// A receiver whose connection is cut, again and again, while the sender
    /// keeps posting: it reads back what it missed each time.
    @Test func aReceiverWhoseConnectionIsCutReadsBackWhatItMissed() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let sender = try RelayInstance("sender", server: server, configure: Self.quick)
            let receiver = try RelayInstance("receiver", server: server) {
                Self.quick(&$0)
                $0.connection.username = "receiver"
            }
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            let load = PostingLoad(on: sender, every: .milliseconds(1))
            for round in 1...3 {
                let before = receiver.messages.all.count
                try await receiver.messages.wait("events flowing before cut \(round)") { $0.count > before + 50 }
                try await execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
                try await eventually("the receiver listening again after cut \(round)") {
                    receiver.relay.counts.gaps == round && receiver.relay.status == .listening
                }
            }
            let posted = await load.stop()
            try await eventually("every event posted sent") { sender.relay.counts.sent >= posted }
            let received = try await receiver.messages.wait("every event") { $0.last?.number == posted - 1 }
            let numbers = received.map(\.number)
            #expect(numbers == Array(0..<posted), "\(Self.differences(numbers, 0...(posted - 1)))")
            #expect(receiver.relay.counts.recovered > 0, "\(receiver.relay.counts)")
            #expect(receiver.relay.counts.lost == 0)
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// Events a receiver missed that the table no longer keeps are reported
    /// lost, by sender and number; those it still keeps are posted.
    @Test func eventsNoLongerKeptAreReportedLostExactly() async throws {
        try await withServer { server in
            try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
            let sender = try RelayInstance("sender", server: server) {
                Self.quick(&$0)
                $0.recoveryWindow = .zero
                $0.recoveryWindowEvents = 5
            }
            let receiver = try RelayInstance("receiver", server: server) {
                Self.quick(&$0)
                $0.connection.username = "receiver"
            }
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            for number in 0..<3 { sender.post(number) }
            try await receiver.messages.wait("the first events") { $0.count == 3 }

            // Kept away: it cannot log in again until allowed.
            try await Self.keepAway(receiver, on: server)
            // Numbered 4 to 23 on the channel; only the last 5 stay.
            for number in 3..<23 { sender.post(number) }
            try await eventually("the events sent") { sender.relay.counts.sent == 23 }
            try await eventually("the table pruned to the last 5") {
                (try? await Self.rowCount(on: server)) == 5
            }
            try await execute("ALTER ROLE receiver LOGIN", on: server)

            let received = try await receiver.messages.wait("the events kept") { $0.last?.number == 22 }
            #expect(received.map(\.number) == [0, 1, 2, 18, 19, 20, 21, 22])
            // The report reaches the stream's reader after the events are
            // posted.
            let losses = try await receiver.reports.wait("the loss reported") { reports in
                reports.contains { $0.kind == .eventsLost }
            }.compactMap(\.loss)
            #expect(losses.map(\.instanceID) == [sender.relay.instanceID])
            #expect(losses.map(\.numbers) == [4...18])
            #expect(receiver.relay.counts.lost == 15)
            #expect(receiver.relay.counts.recovered == 5)
            try await sender.stop()
            try await receiver.stop()
        }
    }

    /// An instance killed with `SIGKILL` after sending: the events it
    /// committed are read back by a receiver that was not listening, and
    /// none is reported lost.
    @Test func theEventsOfAnInstanceKilledWhileAReceiverWasAwayAreReadBack() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: PeerProcess.executable.path))
        try await withServer { server in
            let receiver = try await Self.peerReceiver(on: server)
            let origin = try PeerProcess("origin", port: server.port)
            try await origin.lines.wait("the origin listening") { $0.contains("listening") }
            for number in 0..<5 { try origin.send("post \(number)") }
            try await receiver.messages.wait("the first events") { $0.count == 5 }

            try await Self.keepAway(receiver, on: server)
            for number in 5..<20 { try origin.send("post \(number)") }
            try await eventually("the origin's events in the table") {
                (try? await Self.rowCount(on: server)) == 20
            }
            try await Self.kill(origin)
            try await execute("ALTER ROLE receiver LOGIN", on: server)

            let received = try await receiver.messages.wait("every event") { $0.count == 20 }
            #expect(received.map(\.number) == Array(0..<20))
            #expect(receiver.relay.counts.lost == 0)
            try await receiver.stop()
        }
    }

    /// An instance killed with `SIGKILL` while a receiver was away, right
    /// after it notified events whose rows were not written: the receiver
    /// reports them lost, by number.
    ///
    /// (Here the server drops those rows, so that none is ever written.)
    /// Listening again, the receiver learns from the instance's mark that
    /// those events were sent, and waits for their rows. Every number the
    /// instance notified is received, read back or reported lost.
    @Test func theEventsOfAnInstanceKilledBeforeItsRowsWereWrittenAreReportedLostExactly() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: PeerProcess.executable.path))
        try await withServer { server in
            let receiver = try await Self.peerReceiver(on: server)
            let origin = try PeerProcess("origin", port: server.port)
            try await origin.lines.wait("the origin listening") { $0.contains("listening") }
            for number in 0..<5 { try origin.send("post \(number)") }
            try await receiver.messages.wait("the first events") { $0.count == 5 }
            // From number 6 on, the origin's rows are dropped as it writes them.
            try await Self.dropRows(above: 5, on: server)

            try await Self.keepAway(receiver, on: server)
            for number in 5..<20 { try origin.send("post \(number)") }
            try await Self.waitUntilMarked(20, on: server)
            try await Self.kill(origin)
            try await execute("ALTER ROLE receiver LOGIN", on: server)

            let losses = try await receiver.reports.wait("the loss reported") { reports in
                reports.contains { $0.kind == .eventsLost }
            }.compactMap(\.loss)
            #expect(losses.map(\.numbers) == [6...20])
            #expect(losses.allSatisfy { $0.instanceID != receiver.relay.instanceID && !$0.inTransactions })
            let counts = receiver.relay.counts
            #expect(receiver.numbers == Array(0..<5))
            #expect(counts.received == 5 && counts.recovered == 0 && counts.lost == 15, "\(counts)")
            try await receiver.stop()
        }
    }

    /// An instance that started while a receiver was away, and was killed
    /// with `SIGKILL` before any of its rows was written: the receiver, which
    /// never heard from it, reports all its events lost, from number 1.
    ///
    /// (Here the server drops every row, so that none is ever written.)
    @Test func theEventsOfAnInstanceStartedAndKilledWhileAReceiverWasAwayAreReportedLostFromOne() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: PeerProcess.executable.path))
        try await withServer { server in
            let receiver = try await Self.peerReceiver(on: server)
            try await Self.dropRows(above: 0, on: server)

            try await Self.keepAway(receiver, on: server)
            let origin = try PeerProcess("origin", port: server.port)
            try await origin.lines.wait("the origin listening") { $0.contains("listening") }
            for number in 0..<10 { try origin.send("post \(number)") }
            try await Self.waitUntilMarked(10, on: server)
            try await Self.kill(origin)
            try await execute("ALTER ROLE receiver LOGIN", on: server)

            let losses = try await receiver.reports.wait("the loss reported") { reports in
                reports.contains { $0.kind == .eventsLost }
            }.compactMap(\.loss)
            #expect(losses.map(\.numbers) == [1...10])
            let counts = receiver.relay.counts
            #expect(receiver.numbers.isEmpty)
            #expect(counts.received == 0 && counts.recovered == 0 && counts.lost == 10, "\(counts)")
            try await receiver.stop()
        }
    }

    /// The events of a statement that a server which stopped answering
    /// interrupted are reported maybe lost when the relay stops, never not
    /// sent; the events that waited behind it are reported not sent.
    @Test func eventsOfAnInterruptedStatementAreReportedMaybeLostNeverNotSent() async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server) {
                Self.quick(&$0)
                // Long enough that a loaded machine does not miss a health
                // check before the freeze: event 0 would then wait, and be
                // reported not sent.
                $0.healthCheckInterval = .seconds(1)
            }
            try await sender.waitUntilListening()
            try await server.freeze()
            do {
                sender.post(0)
                try await eventually("the statement interrupted") { sender.relay.status == .reconnecting }
                for number in 1..<10 { sender.post(number) }
                try await sender.stop(within: .seconds(10))
            } catch {
                try? server.thaw()
                throw error
            }
            try server.thaw()
            let kinds = sender.reports.all.map(\.kind).filter { $0 == .eventMayBeLost || $0 == .eventNotSent }
            #expect(kinds == [.eventMayBeLost] + Array(repeating: .eventNotSent, count: 9))
            let counts = sender.relay.counts
            #expect(counts.mayBeLost == 1 && counts.notSent == 9 && counts.sent == 0, "\(counts)")
        }
    }

    /// A relay of the peer's channel (`RelayPeer`), connected as the role
    /// `receiver`, listening.
    static func peerReceiver(on server: PostgresTestServer) async throws -> RelayInstance {
        try await execute("CREATE ROLE receiver LOGIN SUPERUSER", on: server)
        let receiver = try RelayInstance(
            "receiver", server: server, relaying: [.events(of: ChatMessage.self, channel: "peer.chat")]
        ) {
            quick(&$0)
            $0.connection.username = "receiver"
        }
        try await receiver.waitUntilListening()
        return receiver
    }

    /// Cuts `receiver`'s connection, and keeps the role `receiver` from
    /// connecting until `ALTER ROLE receiver LOGIN`.
    static func keepAway(_ receiver: RelayInstance, on server: PostgresTestServer) async throws {
        try await execute("ALTER ROLE receiver NOLOGIN", on: server)
        try await execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'receiver'", on: server)
        try await eventually("the receiver reconnecting") { receiver.relay.status == .reconnecting }
    }

    /// Has the server drop, as they are written, the rows of
    /// `broadcast_relay_events` numbered above `number`.
    static func dropRows(above number: Int, on server: PostgresTestServer) async throws {
        try await execute(
            "CREATE FUNCTION drop_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
            on: server)
        try await execute(
            "CREATE TRIGGER rows_not_written BEFORE INSERT ON broadcast_relay_events "
                + "FOR EACH ROW WHEN (NEW.number > \(number)) EXECUTE FUNCTION drop_row()",
            on: server)
    }

    /// Waits until the mark of the peer's channel counts `number`.
    static func waitUntilMarked(_ number: Int64, on server: PostgresTestServer) async throws {
        try await eventually("the origin's events notified") {
            (try? await TransactionTests.rows(
                on: server,
                "SELECT max(pg_sequence_last_value(to_regclass(sequence))) FROM broadcast_relay_marks "
                    + "WHERE channel = 'peer.chat'"
            ) { try $0.decode(Int64.self) }) == [number]
        }
    }

    /// Kills `origin` with `SIGKILL`, and waits until it has exited.
    static func kill(_ origin: PeerProcess) async throws {
        origin.kill()
        try await origin.exit.wait("the origin killed") { !$0.isEmpty }
    }

    /// The number of rows of `broadcast_relay_events`.
    static func rowCount(on server: PostgresTestServer) async throws -> Int {
        let connection = try await server.connect()
        do {
            let rows = try await connection.query("SELECT count(*) FROM broadcast_relay_events", logger: Self.logger)
            var count = 0
            for try await row in rows { count = Int(try row.decode(Int64.self)) }
            try await connection.close()
            return count
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Where `numbers` differ from `expected`: missing, and received twice.
    static func differences(_ numbers: [Int], _ expected: ClosedRange<Int>) -> String {
        let missing = Set(expected).subtracting(numbers).sorted()
        var seen: Set<Int> = []
        let twice = numbers.filter { !seen.insert($0).inserted }
        return "\(numbers.count) received; missing \(missing.prefix(20)) (\(missing.count)); twice \(twice.prefix(20))"
    }

    static let logger = Logger(label: "test")
}

/// Runs `sql` on a connection of its own to `server`.
func execute(_ sql: String, on server: PostgresTestServer) async throws {
    let connection = try await server.connect()
    do {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test"))
        for try await _ in rows {}
    } catch {
        try? await connection.close()
        throw error
    }
    try await connection.close()
}

import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ReconnectTests {
    /// When the server restarts mid-stream, each relay reports the lost
    /// connection, retries with a delay, reconnects once the server is back,
    /// reports the gap, and later events flow again, in order.
    @Test func afterAServerRestartTheRelaysReportTheGapReconnectAndResume() async throws {
        try await withServer { server in
            let fastRetries: (inout PostgresRelay.Configuration) -> Void = {
                $0.initialReconnectDelay = .milliseconds(50)
                $0.maximumReconnectDelay = .milliseconds(400)
            }
            let first = try RelayInstance("first", server: server, configure: fastRetries)
            let second = try RelayInstance("second", server: server, configure: fastRetries)
            try await first.waitUntilListening()
            try await second.waitUntilListening()
            for number in 0..<20 { first.post(number) }
            try await second.messages.wait("the messages before the restart") { $0.count == 20 }

            try await server.stopKeepingData()
            for instance in [first, second] {
                try await instance.reports.wait("\(instance.name)'s lost connection") { reports in
                    reports.contains { $0.kind == .connectionLost }
                        && reports.contains { $0.kind == .connectionFailed }
                }
                #expect(instance.relay.status == .reconnecting)
            }
            try await server.startAgain()
            for instance in [first, second] {
                let reports = try await instance.reports.wait("\(instance.name)'s resumption") { reports in
                    reports.contains { $0.kind == .resumed }
                }
                let gap = try #require(reports.first { $0.kind == .resumed }?.gap)
                #expect(gap.duration > .zero)
                #expect(gap.attempts >= 2)
                #expect(gap.end >= gap.start)
                guard case .connectionLost = gap.cause else {
                    Issue.record("expected the gap to be caused by the lost connection, got \(gap.cause)")
                    return
                }
                #expect(instance.relay.status == .listening)
                #expect(instance.relay.counts.gaps == 1)
            }

            for number in 20..<40 { first.post(number) }
            let received = try await second.messages.wait("the messages after the restart") { $0.count == 40 }
            #expect(received.map(\.number) == Array(0..<40))
            try await first.stop()
            try await second.stop()
        }
    }

    /// A connection that stops answering is noticed within the health-check
    /// interval of the server's last answer.
    ///
    /// The server process of the relay's session is stopped, round after
    /// round, once the relay listens on it and its first heartbeat was
    /// answered (a session still setting up is watched by its setup's own
    /// clock): its last answer came just before, so the relay reports the
    /// lost connection an interval later (1.98–2.00 s here). A relay that
    /// waited an interval before its question, then gave the question an
    /// interval more, noticed it two intervals later (3.98–3.99 s): this stop
    /// is its worst case.
    @Test func aConnectionThatStopsAnsweringIsNoticedWithinTheHealthCheckInterval() async throws {
        let interval = Duration.seconds(2)
        // For the time between the report and the test seeing it on a
        // loaded machine; the bound checked is still under the two intervals
        // a relay that asked late took.
        let slack = Duration.milliseconds(1500)
        try await withServer { server in
            let watched = try RelayInstance("watched", server: server) {
                $0.healthCheckInterval = interval
                $0.initialReconnectDelay = .milliseconds(50)
            }
            try await watched.waitUntilListening()
            var stoppedSessions: Set<Int32> = []
            for round in 1...3 {
                // The relay's new session, beside the stopped one on its way out.
                let session = try await listeningSessionProcess(
                    on: server, excluding: stoppedSessions, "round \(round)")
                stoppedSessions.insert(session)
                let stopped = ContinuousClock.now
                kill(session, SIGSTOP)
                do {
                    try await watched.reports.wait("round \(round): the stopped session noticed") { reports in
                        reports.filter { $0.kind == .connectionLost }.count == round
                    }
                    let noticedAfter = ContinuousClock.now - stopped
                    kill(session, SIGCONT)
                    #expect(noticedAfter <= interval + slack, "round \(round)")
                } catch {
                    kill(session, SIGCONT)
                    throw error
                }
                try await eventually("round \(round): listening again") {
                    watched.relay.status == .listening && watched.relay.counts.gaps == round
                }
            }
            try await watched.stop()
        }
    }

    /// The process ids of the server's sessions other than the one asking;
    /// only those whose latest statement was a relay's heartbeat if
    /// `heartbeating`.
    func otherSessionProcesses(on server: PostgresTestServer, heartbeating: Bool) async throws -> [Int32] {
        let connection = try await server.connect()
        var pids: [Int32] = []
        do {
            // A relay sends its heartbeat only once it listens: a session
            // whose latest statement is one has finished its setup.
            let heartbeat = heartbeating ? "AND query LIKE 'SELECT pg_notify(%'" : ""
            let rows = try await connection.query(
                """
                SELECT pid FROM pg_stat_activity \
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() \(unescaped: heartbeat)
                """,
                logger: Logger(label: "test"))
            for try await row in rows { pids.append(try row.decode(Int32.self)) }
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
        return pids
    }

    /// The process id of the one session connected to `server`, other than
    /// the one asking and those `excluded`, whose latest statement was a
    /// relay's heartbeat, once there is one, and the only session but those;
    /// throws ``TimedOut`` after 10 seconds.
    func listeningSessionProcess(
        on server: PostgresTestServer, excluding excluded: Set<Int32> = [], _ what: String
    ) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let sessions = try await otherSessionProcesses(on: server, heartbeating: false)
                .filter { !excluded.contains($0) }
            let listening = try await otherSessionProcesses(on: server, heartbeating: true)
                .filter { !excluded.contains($0) }
            if sessions.count == 1, listening == sessions { return sessions[0] }
            guard ContinuousClock.now < deadline else {
                throw TimedOut(description: "\(what): sessions \(sessions), listening \(listening), one expected")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A connection whose server process stops answering, without closing
    /// it (as across a network partition), fails the relay's health check:
    /// the relay drops it, reports the gap, and listens on a new one.
    @Test func aConnectionThatStopsAnsweringFailsTheHealthCheckAndIsReplaced() async throws {
        try await withServer { server in
            let watched = try RelayInstance("watched", server: server) {
                $0.healthCheckInterval = .milliseconds(300)
                $0.initialReconnectDelay = .milliseconds(50)
            }
            try await watched.waitUntilListening()
            // One session, the relay's, once a health check that a loaded
            // machine left unanswered has replaced it.
            let session = try await listeningSessionProcess(on: server, "the relay's session")
            kill(session, SIGSTOP)
            do {
                let reports = try await watched.reports.wait("the stalled connection replaced") { reports in
                    reports.contains { $0.kind == .resumed }
                }
                #expect(reports.contains { $0.kind == .connectionLost })
                kill(session, SIGCONT)
            } catch {
                kill(session, SIGCONT)
                throw error
            }
            let sender = try RelayInstance("sender", server: server)
            try await sender.waitUntilListening()
            sender.post(1)
            try await watched.messages.wait("a message on the new connection") { $0.count == 1 }
            try await sender.stop()
            try await watched.stop()
        }
    }
}

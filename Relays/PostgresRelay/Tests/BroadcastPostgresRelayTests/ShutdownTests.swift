import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport
import ServiceLifecycle
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ShutdownTests {
    /// The number of sessions connected to `server` other than the one
    /// asking.
    func otherSessions(on server: PostgresTestServer) async throws -> Int {
        let connection = try await server.connect()
        var count = 0
        do {
            let rows = try await connection.query(
                """
                SELECT count(*)::int FROM pg_stat_activity \
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
                """,
                logger: Logger(label: "test"))
            for try await row in rows { count = try row.decode(Int.self) }
        } catch {
            try await connection.close()
            throw error
        }
        try await connection.close()
        return count
    }

    /// Cancelling the task that runs the relay makes `run()` return
    /// promptly, with its connection closed; it reports that it stopped,
    /// ends its report streams, and relays nothing posted afterwards.
    @Test func cancellingRunReturnsPromptlyAndClosesTheConnection() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await first.waitUntilListening()
            try await second.waitUntilListening()
            #expect(try await otherSessions(on: server) == 2)

            try await first.stop(within: .seconds(5))
            #expect(first.relay.status == .stopped)
            // Reports reach the spy through a task reading the stream.
            try await first.reports.wait("the stopped report") { $0.last?.kind == .stopped }
            let deadline = ContinuousClock.now + .seconds(5)
            var sessions = try await otherSessions(on: server)
            // The server ends a session a moment after its client closes it.
            while sessions != 1 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                sessions = try await otherSessions(on: server)
            }
            #expect(sessions == 1)

            first.post(1)
            second.post(2)
            try await first.messages.wait("its own post") { $0.count == 1 }
            #expect(first.relay.counts.sent == 0)
            #expect(first.relay.counts.notSent == 0)
            #expect(second.numbers == [2])
            await #expect(throws: PostgresRelayError.self) { try await first.relay.run() }
            try await second.stop()
        }
    }

    /// Events still waiting when the relay is cancelled (here: it never
    /// reached its server) are each reported as not sent.
    @Test func eventsWaitingWhenTheRelayIsCancelledAreReportedAsNotSent() async throws {
        let instance = try RelayInstance.unreachable()
        instance.post(1)
        instance.post(2)
        try await instance.reports.wait("a failed connection attempt") { $0.contains { $0.kind == .connectionFailed } }
        #expect(instance.relay.status == .connecting)

        try await instance.stop(within: .seconds(5))
        let notSent = try await instance.reports.wait("the events not sent") { reports in
            reports.filter { $0.kind == .eventNotSent }.count >= 2
        }.filter { $0.kind == .eventNotSent }
        #expect(notSent.count == 2)
        #expect(
            notSent.allSatisfy {
                if case .relayStopped? = $0.error { true } else { false }
            })
    }

    /// In a `ServiceGroup`, a graceful shutdown stops collecting events,
    /// sends those already posted, and then `run()` returns.
    @Test func aGracefulShutdownSendsTheEventsAlreadyPostedThenReturns() async throws {
        try await withServer { server in
            let receiver = try RelayInstance("receiver", server: server)
            try await receiver.waitUntilListening()
            let broadcaster = Broadcaster()
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let relay = try PostgresRelay(
                broadcaster: broadcaster, configuration: .init(connection: server.connection),
                relaying: RelayInstance.defaultEvents, logger: logger)
            let group = ServiceGroup(services: [relay], logger: logger)
            let reports = relay.reports()
            let running = Task { try await group.run() }
            for await report in reports where report.kind == .listening { break }

            for number in 0..<200 {
                broadcaster.post(ChatMessage(number: number, text: "last words"), isolation: nil)
            }
            await group.triggerGracefulShutdown()

            let received = try await receiver.messages.wait("every event posted before the shutdown") {
                $0.count == 200
            }
            #expect(received.map(\.number) == Array(0..<200))
            try await within(.seconds(5), "the service group to return") { try await running.value }
            #expect(relay.status == .stopped)
            #expect(relay.counts.sent == 200)
            broadcaster.post(ChatMessage(number: 200, text: "too late"), isolation: nil)
            #expect(relay.counts.sent == 200)
            #expect(relay.counts.notSent == 0)
            try await receiver.stop()
        }
    }
}

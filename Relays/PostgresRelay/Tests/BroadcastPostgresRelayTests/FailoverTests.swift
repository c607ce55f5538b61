import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// What a server does to the relays' connections in one round.
enum Disruption: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `pg_ctl restart -m fast`: every session is told it is terminated.
    case restartFast
    /// `pg_ctl restart -m immediate`: the server dies without a word.
    case restartImmediate
    /// Every process of the server is stopped (`SIGSTOP`) until the relays
    /// have noticed, then continued: a hung host, whose connections stay
    /// open and silent.
    case serverStopped
    /// The relays' sessions are ended by `pg_terminate_backend`, as a
    /// failover proxy or an administrator cuts a connection.
    case connectionCut

    var testDescription: String { rawValue }
}

@Suite(.needsPostgres, .serialized, .timeLimit(.minutes(2))) struct FailoverTests {
    /// Quick to notice a dead connection and to reconnect, so that rounds
    /// take seconds.
    ///
    /// Its buffer holds what is posted while a disruption lasts, so that
    /// the relay does not refuse thousands of events a second, and its
    /// report stream, which keeps at most 1,000 unread reports, keeps
    /// every report for the test to read.
    static func failoverConfiguration(_ configuration: inout PostgresRelay.Configuration) {
        configuration.outgoingCapacity = 200_000
        configuration.healthCheckInterval = .milliseconds(500)
        configuration.initialReconnectDelay = .milliseconds(50)
        configuration.maximumReconnectDelay = .milliseconds(400)
    }

    /// While one instance posts an event about every 0.1 ms, the server is
    /// disrupted round after round.
    ///
    /// After every round both relays report
    /// the lost connection and resume; at the end every event posted is
    /// accounted for exactly once (sent, reported not sent, or reported
    /// maybe lost), none is reported as refused by the server, the other
    /// instance received the events in order and still receives, and
    /// `run()` returns promptly when cancelled.
    @Test(arguments: Disruption.allCases)
    func everyEventPostedIsAccountedForAcrossRepeatedDisruptions(_ disruption: Disruption) async throws {
        try await withServer { server in
            let sender = try RelayInstance("sender", server: server, configure: Self.failoverConfiguration)
            let receiver = try RelayInstance("receiver", server: server, configure: Self.failoverConfiguration)
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()
            let load = PostingLoad(on: sender)
            let rounds = 4
            for round in 1...rounds {
                let receivedBefore = receiver.messages.all.count
                try await receiver.messages.wait("events flowing before disruption \(round)") {
                    $0.count > receivedBefore + 100
                }
                // At least one new gap per round: on a loaded machine a
                // health check may also go unanswered in time and end a
                // connection.
                let gapsBefore = [sender, receiver].map(\.relay.counts.gaps)
                try await disrupt(server, disruption, instances: [sender, receiver])
                for (instance, gapsBefore) in zip([sender, receiver], gapsBefore) {
                    do {
                        // A loaded machine reads back thousands of events
                        // per gap slowly: it can take seconds.
                        try await eventually(
                            "\(instance.name) resuming after disruption \(round)", within: .seconds(30)
                        ) {
                            instance.relay.counts.gaps > gapsBefore && instance.relay.status == .listening
                        }
                    } catch {
                        Issue.record("\(instance.relay.counts), status \(instance.relay.status)")
                        throw error
                    }
                }
            }
            let posted = await load.stop()

            // What waited in the buffer (up to 10,000 events a second of
            // disruption) is sent at the pace of a loaded machine.
            try await eventually("every event posted accounted for", within: .seconds(60)) {
                let counts = sender.relay.counts
                return counts.sent + counts.notSent + counts.mayBeLost >= posted
            }
            let accounted = sender.relay.counts
            #expect(
                accounted.sent + accounted.notSent + accounted.mayBeLost == posted,
                "posted \(posted), counts \(accounted)")
            #expect(accounted.gaps >= rounds)
            let refusals = sender.reports.all.filter {
                if case .serverRejected? = $0.error { true } else { false }
            }
            #expect(refusals.isEmpty, "a termination taken for a refusal: \(refusals.prefix(3))")

            sender.post(posted, text: "after the last round")
            let received = try await receiver.messages.wait("the event posted after the last round") {
                $0.last?.number == posted
            }
            let numbers = received.map(\.number)
            #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "received out of order or twice")
            #expect(numbers.count <= accounted.sent + accounted.mayBeLost + 1)
            try await sender.stop(within: .seconds(10))
            try await receiver.stop(within: .seconds(10))
        }
    }

    /// Cancelling the relay's task while the server is stopped, with events
    /// in flight or waiting, makes `run()` return promptly: nothing it
    /// awaits (a query the server does not answer, a connection attempt the
    /// server does not complete) keeps it.
    @Test func cancellingWhileTheServerIsStoppedReturnsPromptly() async throws {
        try await withServer { server in
            // No health check comes to its rescue: only the cancellation can
            // end its wait for the frozen server's answer.
            let inFlight = try RelayInstance("in flight", server: server) {
                Self.failoverConfiguration(&$0)
                $0.healthCheckInterval = .seconds(60)
            }
            let reconnecting = try RelayInstance(
                "reconnecting", server: server, configure: Self.failoverConfiguration)
            try await inFlight.waitUntilListening()
            try await reconnecting.waitUntilListening()
            try await server.freeze()
            do {
                for number in 0..<100 {
                    inFlight.post(number)
                    reconnecting.post(number)
                }
                try await eventually("the stopped server noticed") { reconnecting.relay.status == .reconnecting }
                try await inFlight.stop(within: .seconds(10))
                try await reconnecting.stop(within: .seconds(10))
                for instance in [inFlight, reconnecting] {
                    let counts = instance.relay.counts
                    #expect(counts.sent + counts.notSent + counts.mayBeLost == 100, "\(instance.name): \(counts)")
                }
            } catch {
                try? server.thaw()
                throw error
            }
            try server.thaw()
        }
    }

    /// Does `disruption` to `server`, and returns once it is over (for a
    /// stopped server: once every instance has noticed, and the server runs
    /// again).
    private func disrupt(
        _ server: PostgresTestServer, _ disruption: Disruption, instances: [RelayInstance]
    ) async throws {
        switch disruption {
        case .restartFast:
            try await server.restart(.fast)
        case .restartImmediate:
            try await server.restart(.immediate)
        case .serverStopped:
            try await server.freeze()
            do {
                for instance in instances {
                    try await eventually("\(instance.name) noticing the stopped server") {
                        instance.relay.status == .reconnecting
                    }
                }
            } catch {
                try? server.thaw()
                throw error
            }
            try server.thaw()
        case .connectionCut:
            let connection = try await server.connect()
            do {
                let rows = try await connection.query(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                    WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
                    """,
                    logger: Logger(label: "test"))
                for try await _ in rows {}
            } catch {
                try await connection.close()
                throw error
            }
            try await connection.close()
        }
    }
}

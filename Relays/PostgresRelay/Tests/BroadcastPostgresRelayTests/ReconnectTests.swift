import Broadcast
import BroadcastPostgresRelay
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
}

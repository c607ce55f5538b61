import Foundation
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct TwoProcessTests {
    /// Two instances of an app in two processes: what each posts reaches
    /// the other once, in order, and not itself a second time; both stop
    /// cleanly when told to.
    @Test func twoInstancesInTwoProcessesRelayEachOthersEventsInOrder() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: PeerProcess.executable.path),
            "RelayPeer was not built beside the tests (\(PeerProcess.executable.path)); build with --build-tests")
        try await withServer { server in
            let first = try PeerProcess("first", port: server.port)
            let second = try PeerProcess("second", port: server.port)
            for peer in [first, second] {
                try await peer.lines.wait("\(peer.name) listening") { $0.contains("listening") }
            }

            for number in 1...50 { try first.send("post \(number)") }
            for number in 51...100 { try second.send("post \(number)") }
            for peer in [first, second] {
                try await peer.lines.wait("all 100 messages on \(peer.name)") { lines in
                    lines.filter { $0.hasPrefix("received ") }.count == 100
                }
            }
            let onFirst = first.received
            let onSecond = second.received
            #expect(onFirst.filter { $0 <= 50 } == Array(1...50))
            #expect(onFirst.filter { $0 > 50 } == Array(51...100))
            #expect(onSecond.filter { $0 <= 50 } == Array(1...50))
            #expect(onSecond.filter { $0 > 50 } == Array(51...100))

            for peer in [first, second] {
                try peer.send("counts")
                let lines = try await peer.lines.wait("\(peer.name)'s counts") {
                    $0.contains { $0.hasPrefix("counts ") }
                }
                #expect(
                    lines.contains("counts sent=50 received=50 ignoredEchoes=50")
                        || lines.contains {
                            // The last batch's commit may reach the other instance
                            // before its own query returns: `sent` can lag.
                            $0.hasPrefix("counts ") && $0.hasSuffix("received=50 ignoredEchoes=50")
                        })
                try peer.send("quit")
                try await peer.lines.wait("\(peer.name)'s relay to stop", within: .seconds(5)) {
                    $0.last == "stopped stopped"
                }
                try await peer.exit.wait("\(peer.name) to exit", within: .seconds(5)) { !$0.isEmpty }
                #expect(peer.exit.all == [0])
            }
        }
    }
}

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
                // The other instance can have every event before this one's
                // own echoes, and the answer to its last batch, are back:
                // asked every 10 ms until they are, for a few seconds.
                let settled = "counts sent=50 received=50 ignoredEchoes=50"
                let deadline = ContinuousClock.now + .seconds(5)
                var asked = 0
                var counts: String?
                while true {
                    try peer.send("counts")
                    asked += 1
                    let answers = asked
                    let lines = try await peer.lines.wait("\(peer.name)'s counts") { lines in
                        lines.filter { $0.hasPrefix("counts ") }.count == answers
                    }
                    counts = lines.last { $0.hasPrefix("counts ") }
                    guard counts != settled, ContinuousClock.now < deadline else { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(counts == settled, "\(peer.name)")
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

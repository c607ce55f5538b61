import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct OrderingTests {
    /// Events posted in a burst on each of two instances at once arrive on
    /// the other in the order they were posted (they travel in batches of
    /// several `NOTIFY`s per statement).
    @Test func eventsArriveInPostingOrderWhileBothInstancesPostAtOnce() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await first.waitUntilListening()
            try await second.waitUntilListening()
            let count = 1000

            async let firstPosts: Void = Task.detached { for number in 0..<count { first.post(number) } }.value
            async let secondPosts: Void = Task.detached {
                for number in count..<(2 * count) { second.post(number) }
            }.value
            _ = await (firstPosts, secondPosts)

            let seenBySecond = try await second.messages.wait("the first instance's messages") { $0.count == 2 * count }
            let seenByFirst = try await first.messages.wait("the second instance's messages") { $0.count == 2 * count }
            #expect(seenBySecond.filter { $0.text.hasPrefix("first") }.map(\.number) == Array(0..<count))
            #expect(seenByFirst.filter { $0.text.hasPrefix("second") }.map(\.number) == Array(count..<(2 * count)))
            #expect(second.relay.counts.received == count)
            try await first.stop()
            try await second.stop()
        }
    }
}

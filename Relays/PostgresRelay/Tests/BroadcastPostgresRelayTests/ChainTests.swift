import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ChainTests {
    /// Every event crosses a chain of two databases once, both ways.
    ///
    /// Three instances: `left` on one database, `right` on another, and
    /// `middle` relaying both ways on both, with one broadcaster. Every
    /// event reaches every instance exactly once, whoever posts it, and
    /// nothing comes back to where it was posted.
    @Test func eventsCrossAChainOfTwoDatabasesBothWaysOnceAndNeverComeBack() async throws {
        try await withServer { server in
            let connection = try await server.connect()
            try await connection.query("CREATE DATABASE right_side", logger: Logger(label: "test"))
            try await connection.close()
            let leftDatabase = PostgresRelay.Configuration(connection: server.connection)
            var rightDatabase = leftDatabase
            rightDatabase.connection.database = "right_side"

            let left = try RelayInstance("left", connections: [leftDatabase])
            let middle = try RelayInstance("middle", connections: [leftDatabase, rightDatabase])
            let right = try RelayInstance("right", connections: [rightDatabase])
            let instances = [left, middle, right]
            for instance in instances { try await instance.waitUntilListening() }

            left.post(1)
            right.post(2)
            middle.post(3)
            for instance in instances {
                try await instance.messages.wait("the three events on \(instance.name)") { $0.count == 3 }
            }
            // Markers from both ends. A relay that sent an event back would
            // have queued it when the event arrived, before the marker, and
            // each database delivers in commit order: by the time a marker
            // has crossed to the far end, anything sent back has arrived.
            left.post(4)
            right.post(5)
            for instance in instances {
                try await instance.messages.wait("both markers on \(instance.name)") { messages in
                    Set(messages.map(\.number)).isSuperset(of: [4, 5])
                }
            }
            for instance in instances {
                #expect(instance.numbers.sorted() == [1, 2, 3, 4, 5], "\(instance.name) saw \(instance.numbers)")
            }
            // The middle instance's relays forward each other's events: left's
            // 1 and 4 reach the right end through it, right's 2 and 5 the left
            // end, and its own 3 both.
            #expect(middle.relays[0].counts.received == 2)
            #expect(middle.relays[1].counts.received == 2)
            #expect(left.relay.counts.received == 3)
            #expect(right.relay.counts.received == 3)
            for instance in instances { try await instance.stop() }
        }
    }

    /// Two relays of one broadcaster on the same database both receive
    /// every event; the instance posts each once, and the copy one relay
    /// forwards through the other names the instance it came from, which
    /// does not post it again.
    @Test func anEventArrivingTwiceByTwoRoutesIsPostedOnce() async throws {
        try await withServer { server in
            let database = PostgresRelay.Configuration(connection: server.connection)
            let sender = try RelayInstance("sender", connections: [database])
            let doubled = try RelayInstance("doubled", connections: [database, database])
            try await sender.waitUntilListening()
            try await doubled.waitUntilListening()

            sender.post(1)
            sender.post(2)
            // Each of the two relays handles both events, posting or
            // ignoring each (counted as it decides, before it posts); wait
            // until these four are handled and both events are posted. (The
            // copies each relay forwards to the other's database, the same
            // one, come back as echoes.)
            try await doubled.messages.wait("both events on the doubled instance") { $0.count >= 2 }
            try await eventually("the doubled instance's relays to handle both events twice") {
                doubled.relays.map { $0.counts.received + $0.counts.ignoredEchoes }.reduce(0, +) >= 4
            }
            #expect(doubled.numbers == [1, 2])
            #expect(doubled.relays.map(\.counts.received).reduce(0, +) == 2)
            // The sender's own two, and the two forwarded copies.
            try await eventually("the sender to handle its events and the forwarded copies") {
                sender.relay.counts.received + sender.relay.counts.ignoredEchoes >= 4
            }
            #expect(sender.numbers == [1, 2])
            #expect(sender.relay.counts.received == 0)
            try await sender.stop()
            try await doubled.stop()
        }
    }
}

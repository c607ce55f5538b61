import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

/// The sticky state of a type relayed with `sticky: true` is kept in the
/// database with each change sent, so that an instance that starts, or
/// resumes after a gap, has it; instances that change it at once end on the
/// same state, the last one committed.
@Suite(.needsPostgres, .serialized, .timeLimit(.minutes(2))) struct StickyStateTests {
    static let ada = OnlineUsers(names: ["ada"])
    static let grace = OnlineUsers(names: ["ada", "grace"])

    /// An instance started after a sticky post, and after a
    /// `setStickyEvent`, has the latest state once it listens: a handler
    /// registered with `receivingSticky: true` receives it at once.
    @Test func anInstanceStartedAfterAStickyPostHasTheState() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            try await first.waitUntilListening()
            first.broadcaster.post(Self.ada, sticky: true, isolation: nil)
            first.broadcaster.setStickyEvent(Self.grace)
            try await eventually("both changes sent") { first.relay.counts.sent == 2 }

            let later = try RelayInstance("later", server: server)
            try await later.waitUntilListening()
            #expect(later.broadcaster.stickyEvent(for: OnlineUsers.self) == Self.grace)
            let received = Collected<OnlineUsers>()
            let token = later.broadcaster.addHandler(for: OnlineUsers.self, receivingSticky: true) {
                received.append($0)
            }
            #expect(received.all == [Self.grace])
            // Posted once, sticky, as it was read: its own handler saw it.
            #expect(later.onlineUsers.all == [Self.grace])
            #expect(try await Self.keptEnvelope(on: server)?.contains(#""names":["ada","grace"]"#) == true)
            withExtendedLifetime(token) {}
            try await first.stop()
            try await later.stop()
        }
    }

    /// A clear is relayed to the instances listening, and kept: an instance
    /// started later, holding a stale state of its own, clears it.
    @Test func aClearedStateIsClearedOnTheOthersAndOnALaterInstance() async throws {
        try await withServer { server in
            let (first, second) = try await Self.twoListeningInstances(on: server)
            first.broadcaster.post(Self.ada, sticky: true, isolation: nil)
            try await eventually("the state on the second instance") {
                second.broadcaster.stickyEvent(for: OnlineUsers.self) == Self.ada
            }
            first.broadcaster.clearStickyEvent(for: OnlineUsers.self)
            try await eventually("the state cleared on the second instance") {
                second.broadcaster.stickyEvent(for: OnlineUsers.self) == nil
            }
            #expect(try await Self.keptEnvelope(on: server)?.hasSuffix(#""cleared":true}"#) == true)

            // A stale state of its own, set before its relay was made: not sent.
            let later = try RelayInstance(
                "later", server: server, beforeRelaying: { $0.setStickyEvent(Self.grace) })
            try await later.waitUntilListening()
            #expect(later.broadcaster.stickyEvent(for: OnlineUsers.self) == nil)
            try await first.stop()
            try await second.stop()
            try await later.stop()
        }
    }

    /// An instance whose connection was cut, and which could not reconnect
    /// while another changed the state, has the latest state once it
    /// resumes: it missed the notification, and reads the table.
    @Test func anInstanceDisconnectedWhileTheStateChangedHasTheLatestOnceItResumes() async throws {
        try await withServer { server in
            try await Self.run(on: server, "CREATE ROLE relay_cut LOGIN SUPERUSER")
            let first = try RelayInstance("first", server: server)
            let cut = try RelayInstance("cut", server: server) { configuration in
                FailoverTests.failoverConfiguration(&configuration)
                configuration.connection.username = "relay_cut"
            }
            try await first.waitUntilListening()
            try await cut.waitUntilListening()
            first.broadcaster.post(Self.ada, sticky: true, isolation: nil)
            try await eventually("the first state on the instance to cut") {
                cut.broadcaster.stickyEvent(for: OnlineUsers.self) == Self.ada
            }

            // Cut, and kept out until the state has changed.
            try await Self.run(on: server, "ALTER ROLE relay_cut NOLOGIN")
            try await Self.run(
                on: server, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'relay_cut'")
            try await cut.reports.wait("the connection lost") { $0.contains { $0.kind == .connectionLost } }
            first.broadcaster.post(Self.grace, sticky: true, isolation: nil)
            try await eventually("the change sent") { first.relay.counts.sent == 2 }
            #expect(cut.broadcaster.stickyEvent(for: OnlineUsers.self) == Self.ada)

            try await Self.run(on: server, "ALTER ROLE relay_cut LOGIN")
            try await cut.reports.wait("the relay resumed", within: .seconds(20)) {
                $0.contains { $0.kind == .resumed }
            }
            #expect(cut.broadcaster.stickyEvent(for: OnlineUsers.self) == Self.grace)
            #expect(cut.onlineUsers.all == [Self.ada, Self.grace])
            try await first.stop()
            try await cut.stop()
        }
    }

    /// Two instances change the state at once, continuously, round after
    /// round: after each round both hold the same state, the one the table
    /// keeps (the last committed), whatever order their own posts and the
    /// other's notifications reached them in.
    @Test func instancesChangingTheStateAtOnceConvergeOnTheLastCommitted() async throws {
        try await withServer { server in
            let (first, second) = try await Self.twoListeningInstances(on: server)
            let instances = [first, second]
            let postsPerInstance = 200
            for round in 1...20 {
                let start = DispatchSemaphore(value: 0)
                let posting = instances.map { instance in
                    Thread.detachNewThreadWithCompletion {
                        start.wait()
                        for number in 1...postsPerInstance {
                            instance.broadcaster.post(
                                OnlineUsers(names: ["\(instance.name) \(round).\(number)"]), sticky: true,
                                isolation: nil)
                        }
                    }
                }
                for _ in instances { start.signal() }  // released together
                for done in posting { try await done.wait("posting", within: .seconds(20)) { !$0.isEmpty } }
                let sentBefore = round * postsPerInstance
                try await eventually("every change of round \(round) sent") {
                    instances.allSatisfy { $0.relay.counts.sent == sentBefore }
                }
                let kept = try #require(try await Self.keptState(on: server))
                try await eventually("both instances on the state kept, \(kept.names), in round \(round)") {
                    instances.allSatisfy { $0.broadcaster.stickyEvent(for: OnlineUsers.self) == kept }
                }
            }
            for instance in instances {
                #expect(instance.relay.counts.notSent == 0)
                #expect(instance.relay.counts.mayBeLost == 0)
            }
            try await first.stop()
            try await second.stop()
        }
    }

    /// On a sticky type the state travels, not the posts.
    ///
    /// A post without `sticky: true` is not relayed. A cleared envelope on a channel not
    /// relayed sticky (what an earlier relay sees, which has no state to
    /// clear) is skipped and reported, and the relay goes on.
    @Test func aPlainPostIsNotRelayedAndAClearOnAPlainChannelIsSkipped() async throws {
        try await withServer { server in
            let (first, second) = try await Self.twoListeningInstances(on: server)
            first.broadcaster.post(Self.ada, isolation: nil)  // not sticky: no state changed
            first.broadcaster.post(Self.grace, sticky: true, isolation: nil)
            try await second.onlineUsers.wait("the sticky post") { $0.contains(Self.grace) }
            #expect(second.onlineUsers.all == [Self.grace])
            try await eventually("the sticky post sent") { first.relay.counts.sent == 1 }

            try await Self.run(
                on: server, #"SELECT pg_notify('chat', '{"v":1,"seq":1,"path":["abc"],"cleared":true}')"#)
            first.post(1)
            try await second.messages.wait("the message after the clear") { $0.count == 1 }
            try await eventually("the message sent") { first.relay.counts.sent == 2 }  // and the sticky post
            let skipped = try await second.reports.wait("the skipped payload") { reports in
                reports.contains { $0.kind == .payloadSkipped }
            }.filter { $0.kind == .payloadSkipped }
            #expect(skipped.count == 1)
            if case .eventNotDecodable? = skipped.first?.error {
            } else {
                Issue.record("skipped as \(String(describing: skipped.first?.error)), not eventNotDecodable")
            }
            try await first.stop()
            try await second.stop()
        }
    }

    /// Two instances, "first" and "second", once both listen.
    static func twoListeningInstances(on server: PostgresTestServer) async throws -> (RelayInstance, RelayInstance) {
        let first = try RelayInstance("first", server: server)
        let second = try RelayInstance("second", server: server)
        try await first.waitUntilListening()
        try await second.waitUntilListening()
        return (first, second)
    }

    // MARK: - The table

    /// The envelope the table keeps for the online users' channel.
    static func keptEnvelope(on server: PostgresTestServer) async throws -> String? {
        let connection = try await server.connect()
        do {
            let rows = try await connection.query(
                "SELECT envelope FROM broadcast_relay_sticky WHERE channel = 'online'", logger: Logger(label: "test"))
            var envelope: String?
            for try await row in rows.decode(String.self) { envelope = row }
            try await connection.close()
            return envelope
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The state the table keeps for the online users' channel.
    static func keptState(on server: PostgresTestServer) async throws -> OnlineUsers? {
        struct Envelope: Decodable { let event: OnlineUsers? }
        guard let envelope = try await keptEnvelope(on: server) else { return nil }
        return try JSONDecoder().decode(Envelope.self, from: Data(envelope.utf8)).event
    }

    /// Runs `statement` on a connection of its own.
    static func run(on server: PostgresTestServer, _ statement: String) async throws {
        let connection = try await server.connect()
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test"))
            for try await _ in rows {}
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread; the returned collection gets one element
    /// when it returns.
    static func detachNewThreadWithCompletion(_ body: @escaping @Sendable () -> Void) -> Collected<Bool> {
        let done = Collected<Bool>()
        Thread.detachNewThread {
            body()
            done.append(true)
        }
        return done
    }
}

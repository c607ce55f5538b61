import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import RelayTestSupport

/// One instance of an app: a broadcaster, its relays, a spy on the events
/// its listeners receive, and the relays' reports.
final class RelayInstance: Sendable {
    let name: String
    let broadcaster = Broadcaster()
    let relays: [PostgresRelay]
    /// Every chat message this instance's listeners received, its own posts
    /// included.
    let messages = Collected<ChatMessage>()
    /// Every online-users event this instance's listeners received.
    let onlineUsers = Collected<OnlineUsers>()
    /// The reports of every relay, in the order made.
    let reports = Collected<RelayReport>()
    /// One entry per relay whose `run()` returned.
    let stopped = Collected<Bool>()
    private let tokens: [BroadcastToken]
    private let running: [Task<Void, Never>]

    /// The relay, for instances with one.
    var relay: PostgresRelay { relays[0] }

    /// Makes an instance relaying chat messages and online users over each
    /// of `connections`, and starts its relays.
    init(
        _ name: String,
        connections: [PostgresRelay.Configuration],
        relaying events: [RelayedEvents] = RelayInstance.defaultEvents,
        beforeRelaying prepare: (Broadcaster) -> Void = { _ in }
    ) throws {
        self.name = name
        // RELAY_TEST_LOG=debug (or trace, info, …) shows the relays' logs.
        var logger = Logger(label: "relay.\(name)") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["RELAY_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
        let broadcaster = broadcaster
        prepare(broadcaster)
        let relays = try connections.map { configuration in
            try PostgresRelay(broadcaster: broadcaster, configuration: configuration, relaying: events, logger: logger)
        }
        self.relays = relays
        let messages = messages
        let onlineUsers = onlineUsers
        tokens = [
            broadcaster.addRelayHandler(for: ChatMessage.self) { messages.append($0) },
            broadcaster.addRelayHandler(for: OnlineUsers.self) { onlineUsers.append($0) },
        ]
        let reports = reports
        for relay in relays {
            let stream = relay.reports()
            Task { for await report in stream { reports.append(report) } }
        }
        let stopped = stopped
        running = relays.map { relay in
            Task {
                let ranOnce = (try? await relay.run()) != nil
                stopped.append(ranOnce)
            }
        }
    }

    deinit {
        for task in running { task.cancel() }
    }

    /// An instance with one relay, connected to `server`; `prepare` runs on
    /// its broadcaster before the relay is made.
    convenience init(
        _ name: String, server: PostgresTestServer, relaying events: [RelayedEvents] = RelayInstance.defaultEvents,
        configure: (inout PostgresRelay.Configuration) -> Void = { _ in },
        beforeRelaying prepare: (Broadcaster) -> Void = { _ in }
    ) throws {
        var configuration = PostgresRelay.Configuration(connection: server.connection)
        configure(&configuration)
        try self.init(name, connections: [configuration], relaying: events, beforeRelaying: prepare)
    }

    /// An instance whose relay tries to connect to a port where no server
    /// listens, first again after 20 ms at most.
    static func unreachable() throws -> RelayInstance {
        var configuration = PostgresRelay.Configuration(
            connection: .init(
                host: "127.0.0.1", port: 1, username: "postgres", password: nil, database: nil, tls: .disable))
        configuration.initialReconnectDelay = .milliseconds(20)
        return try RelayInstance("unreachable", connections: [configuration])
    }

    static let defaultEvents: [RelayedEvents] = [
        .events(of: ChatMessage.self, channel: "chat"),
        .events(of: OnlineUsers.self, channel: "online", sticky: true),
    ]

    /// Waits until every relay listens.
    func waitUntilListening() async throws {
        let count = relays.count
        try await reports.wait("\(name) listening") { reports in
            reports.filter { $0.kind == .listening }.count == count
        }
    }

    /// Posts a chat message numbered `number`.
    func post(_ number: Int, text: String? = nil) {
        broadcaster.post(ChatMessage(number: number, text: text ?? "\(name) \(number)"), isolation: nil)
    }

    /// The numbers of the messages received, in order.
    var numbers: [Int] { messages.all.map(\.number) }

    /// Cancels the relays and waits until every `run()` returned.
    func stop(within limit: Duration = .seconds(5)) async throws {
        for task in running { task.cancel() }
        let count = relays.count
        try await stopped.wait("\(name)'s relays to stop", within: limit) { $0.count == count }
        withExtendedLifetime(tokens) {}
    }
}

/// Starts a PostgreSQL server for `body` and stops it afterwards, whatever
/// `body` does.
func withServer(_ body: (PostgresTestServer) async throws -> Void) async throws {
    let server = try await PostgresTestServer.start()
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}

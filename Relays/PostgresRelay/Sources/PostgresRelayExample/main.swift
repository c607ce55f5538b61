// The README's example, as written: a chat server's instance, with the
// relay and the app's own service in one ServiceGroup. Run several against
// the same database and type a line into one: every instance prints it.
//
//     DATABASE_PORT=5432 swift run PostgresRelayExample

import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import ServiceLifecycle

/// A chat message, for every instance's WebSocket clients.
struct ChatMessage: Codable, Sendable {
    let room: String
    let text: String
}

/// A cached entry changed: every instance drops its copy.
struct CacheInvalidated: Codable, Sendable {
    let key: String
}

let environment = ProcessInfo.processInfo.environment
let logger = Logger(label: "chat-server")
let broadcaster = Broadcaster()
let relay = try PostgresRelay(
    broadcaster: broadcaster,
    configuration: .init(
        connection: .init(
            host: environment["DATABASE_HOST"] ?? "127.0.0.1",
            port: environment["DATABASE_PORT"].flatMap { Int($0) } ?? 5432,
            username: environment["DATABASE_USER"] ?? "postgres",
            password: environment["DATABASE_PASSWORD"],
            database: environment["DATABASE_NAME"] ?? "postgres",
            tls: .disable)),
    relaying: [
        .events(of: ChatMessage.self, channel: "chat"),
        .events(of: CacheInvalidated.self, channel: "cache-invalidated"),
    ],
    logger: logger)

/// Stands for the app: prints the chat messages every instance posts, and
/// reacts to the relay's gaps. (Both loops end at a graceful shutdown: the
/// group shuts this service down before the relay, whose report streams end
/// only when it stops.)
struct ChatService: Service {
    let broadcaster: Broadcaster
    let relay: PostgresRelay

    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await message in broadcaster.events(of: ChatMessage.self).cancelOnGracefulShutdown() {
                    print("[\(message.room)] \(message.text)")
                }
            }
            group.addTask {
                for await report in relay.reports().cancelOnGracefulShutdown() where report.kind == .resumed {
                    // Invalidations sent during the gap were missed: start afresh.
                    print("Relay resumed after a gap; dropping every cached entry")
                }
            }
        }
    }
}

// Each line typed is posted as a chat message, here and, through the relay,
// on every other instance.
Thread.detachNewThread {
    while let line = readLine() {
        broadcaster.post(ChatMessage(room: "lobby", text: line))
    }
}

let services = ServiceGroup(
    configuration: .init(
        services: [relay, ChatService(broadcaster: broadcaster, relay: relay)],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
try await services.run()

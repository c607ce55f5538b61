import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import Tracing

/// The README's Swift blocks, copied verbatim.
///
/// They compile with the relay's tests (not run); the names they take as given are declared around
/// them. `DocumentationSampleTests`, in the root package's tests, checks that
/// each block has its copy here and that the copies are verbatim.
enum ReadmeSamples {
    struct ChatMessage: Codable, Sendable {
        let room: String
        let text: String
    }

    struct CacheInvalidated: Codable, Sendable {
        let key: String
    }

    struct OnlineUsers: Codable, Sendable {
        let names: [String]
    }

    static func introduction(broadcaster: Broadcaster, connection: PostgresConnection.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        let relay = try PostgresRelay(
            broadcaster: broadcaster,
            configuration: .init(connection: connection),  // a PostgresConnection.Configuration
            relaying: [
                .events(of: ChatMessage.self, channel: "chat"),
                .events(of: CacheInvalidated.self, channel: "cache-invalidated"),
            ])
        // Run it in a ServiceGroup (it is a Service), or: try await relay.run()

        broadcaster.post(ChatMessage(room: "lobby", text: "Hello"))  // every instance's listeners receive it
        // End of the sample.
        _ = relay
    }

    static func stickyState(broadcaster: Broadcaster, configuration: PostgresRelay.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        let relay = try PostgresRelay(
            broadcaster: broadcaster, configuration: configuration,
            relaying: [.events(of: OnlineUsers.self, channel: "online", sticky: true)])

        broadcaster.post(OnlineUsers(names: ["ada"]), sticky: true)  // every instance's state, now and later
        broadcaster.clearStickyEvent(for: OnlineUsers.self)  // cleared on every instance
        // End of the sample.
        _ = relay
    }

    static func postingWithATransaction(
        client: PostgresClient, relay: PostgresRelay, message: ChatMessage, logger: Logger
    ) async throws {
        // Verbatim from Relays/PostgresRelay/README.md
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "INSERT INTO messages (room, text) VALUES (\(message.room), \(message.text))", logger: logger)
            try await relay.post(message, inTransactionOn: connection)
        }
        // End of the sample.
    }

    static func tracing(broadcaster: Broadcaster) {
        // Verbatim from Relays/PostgresRelay/README.md
        withSpan("close room") { span in
            span.attributes["room"] = "lobby"
            broadcaster.post(ChatMessage(room: "lobby", text: "Closing"))  // carries this span's context
        }
        // End of the sample.
    }

    static func configuring(broadcaster: Broadcaster, connection: PostgresConnection.Configuration) throws {
        // Verbatim from Relays/PostgresRelay/README.md
        var configuration = PostgresRelay.Configuration(connection: connection)
        configuration.healthCheckInterval = .seconds(5)
        let relay = try PostgresRelay(
            broadcaster: broadcaster, configuration: configuration, relaying: [.events(of: ChatMessage.self)])
        // End of the sample.
        _ = relay
    }
}

import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

/// A relay keeps its broadcaster (its `broadcaster` property), and nothing
/// keeps the relay: once the program lets go of both, both are gone, with
/// the handlers the relay registered (a cycle between a route and its handler
/// would keep them, and the broadcaster, for the life of the process).
@Suite struct ReleaseTests {
    @Test func aRelayLetGoOfIsReleasedWithItsBroadcaster() throws {
        weak var releasedRelay: PostgresRelay?
        weak var releasedBroadcaster: Broadcaster?
        do {
            let broadcaster = Broadcaster()
            let relay = try PostgresRelay(
                broadcaster: broadcaster,
                configuration: PostgresRelay.Configuration(
                    connection: .init(
                        host: "127.0.0.1", port: 5432, username: "app", password: nil, database: nil, tls: .disable)),
                relaying: [.events(of: ChatMessage.self), .events(of: OnlineUsers.self, sticky: true)])
            #expect(broadcaster.registrationCount > 0)
            releasedRelay = relay
            releasedBroadcaster = broadcaster
        }
        #expect(releasedRelay == nil)
        #expect(releasedBroadcaster == nil)
    }
}

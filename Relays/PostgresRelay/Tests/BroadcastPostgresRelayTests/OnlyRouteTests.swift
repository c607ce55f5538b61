import Broadcast
import RelayTestSupport
import Testing

@testable import BroadcastPostgresRelay

/// The count of each event type's routes on an instance.
///
/// A relay posts a received event without recording its crossing when no
/// other relay of its broadcaster relays the event's type: then no other
/// relay's handler is called for the event. Counted too high, a crossing is
/// recorded for nothing; counted too low, another relay sends the received
/// event out as its own, without the path that stops it coming back
/// (`ChainTests` sees that).
@Suite struct OnlyRouteTests {
    static let configuration = PostgresRelay.Configuration(
        connection: .init(host: "127.0.0.1", port: 5432, username: "app", password: nil, database: nil, tls: .disable))

    @Test func aRouteIsAloneUntilAnotherRelayOfItsBroadcasterRelaysItsTypeAndAgainOnceThatOneIsReleased() throws {
        let broadcaster = Broadcaster()
        let instance = InstanceIdentity.of(broadcaster)
        let chat = ObjectIdentifier(ChatMessage.self)
        let first = try PostgresRelay(
            broadcaster: broadcaster, configuration: Self.configuration,
            relaying: [.events(of: ChatMessage.self, channel: "chat"), .events(of: OnlineUsers.self, sticky: true)])
        #expect(instance.isOnlyRoute(of: chat))
        do {
            let second = try PostgresRelay(
                broadcaster: broadcaster, configuration: Self.configuration,
                relaying: [.events(of: ChatMessage.self, channel: "other_chat")])
            #expect(!instance.isOnlyRoute(of: chat))
            withExtendedLifetime(second) {}
        }
        #expect(instance.isOnlyRoute(of: chat))
        withExtendedLifetime(first) {}
    }

    @Test func aRelayOfAnotherBroadcasterIsNotCounted() throws {
        let broadcaster = Broadcaster()
        let relay = try PostgresRelay(
            broadcaster: broadcaster, configuration: Self.configuration,
            relaying: [.events(of: ChatMessage.self)])
        let other = try PostgresRelay(
            broadcaster: Broadcaster(), configuration: Self.configuration,
            relaying: [.events(of: ChatMessage.self)])
        #expect(InstanceIdentity.of(broadcaster).isOnlyRoute(of: ObjectIdentifier(ChatMessage.self)))
        withExtendedLifetime((relay, other)) {}
    }
}

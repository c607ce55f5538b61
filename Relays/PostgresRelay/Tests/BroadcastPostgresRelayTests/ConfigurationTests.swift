import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite struct ConfigurationTests {
    let configuration = PostgresRelay.Configuration(
        connection: .init(host: "127.0.0.1", port: 5432, username: "app", password: nil, database: nil, tls: .disable))

    func relaying(_ events: [RelayedEvents]) throws(PostgresRelayError) {
        _ = try PostgresRelay(broadcaster: Broadcaster(), configuration: configuration, relaying: events)
    }

    /// Channel names PostgreSQL would not take, two types on one channel,
    /// and one type twice are refused when the relay is made, with the
    /// error that names the problem.
    @Test func aConfigurationPostgreSQLOrTheRelayCannotServeIsRefusedWhenTheRelayIsMade() {
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: "")])
        } throws: { error in
            if case .invalidChannel("", _)? = error as? PostgresRelayError { true } else { false }
        }
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: String(repeating: "c", count: 64))])
        } throws: { error in
            if case .invalidChannel(_, let reason)? = error as? PostgresRelayError {
                reason.contains("63")
            } else {
                false
            }
        }
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: "broadcast_relay_heartbeat")])
        } throws: { error in
            if case .invalidChannel(_, let reason)? = error as? PostgresRelayError {
                reason.contains("heartbeat")
            } else {
                false
            }
        }
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: "say \"hi\"")])
        } throws: { error in
            if case .invalidChannel? = error as? PostgresRelayError { true } else { false }
        }
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: "one"), .events(of: OnlineUsers.self, channel: "one")])
        } throws: { error in
            if case .duplicateChannel("one")? = error as? PostgresRelayError { true } else { false }
        }
        #expect {
            try relaying([.events(of: ChatMessage.self, channel: "one"), .events(of: ChatMessage.self, channel: "two")])
        } throws: { error in
            if case .duplicateEventType? = error as? PostgresRelayError { true } else { false }
        }
        #expect(throws: Never.self) {
            try relaying([.events(of: ChatMessage.self, channel: String(repeating: "c", count: 63))])
        }
    }

    /// By default a type's channel is its name as `String(reflecting:)`
    /// spells it, and events arrive not sticky.
    @Test func theDefaultChannelIsTheTypesNameAndEventsArriveNotSticky() {
        let relayed = RelayedEvents.events(of: ChatMessage.self)
        #expect(relayed.channel == "RelayTestSupport.ChatMessage")
        #expect(relayed.typeName == "RelayTestSupport.ChatMessage")
        #expect(!relayed.sticky)
    }
}

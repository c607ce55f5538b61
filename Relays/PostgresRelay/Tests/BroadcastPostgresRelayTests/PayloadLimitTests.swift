import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct PayloadLimitTests {
    /// The envelope of the first event an instance posts, for a message
    /// whose text is `text`, as the relay writes it: the first on its
    /// channel.
    func envelope(of instance: RelayInstance, text: String) -> String {
        "{\"v\":1,\"seq\":1,\"n\":1,\"path\":[\"\(instance.relay.instanceID)\"],\"event\":{\"number\":1,\"text\":\"\(text)\"}}"
    }

    /// An event whose envelope is 7,999 bytes, the largest payload
    /// PostgreSQL takes in a notification, is sent as one; one byte more
    /// travels in the table; one over the payload limit, 16 MiB by default,
    /// is refused with a typed report, not sent, and the relay goes on.
    @Test func anEventOverThePayloadLimitIsRefusedAndReportedAndTheRelayGoesOn() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await first.waitUntilListening()
            try await second.waitUntilListening()
            let largest = String(repeating: "x", count: 7999 - envelope(of: first, text: "").utf8.count)
            #expect(envelope(of: first, text: largest).utf8.count == 7999)
            let limit = PostgresRelay.Configuration(connection: server.connection).payloadLimit
            #expect(limit == 16_777_216)
            let tooLarge = String(repeating: "z", count: limit - envelope(of: first, text: "").utf8.count + 1)

            first.broadcaster.post(ChatMessage(number: 1, text: largest), isolation: nil)
            first.broadcaster.post(ChatMessage(number: 2, text: largest + "y"), isolation: nil)
            first.broadcaster.post(ChatMessage(number: 3, text: tooLarge), isolation: nil)
            first.post(4)

            let received = try await second.messages.wait("the messages within the limit") { $0.count == 3 }
            #expect(received.map(\.number) == [1, 2, 4])
            #expect(received.first?.text == largest)
            #expect(received.dropFirst().first?.text == largest + "y")
            let refusals = try await first.reports.wait("the refusal") { reports in
                reports.contains { $0.kind == .eventTooLarge }
            }.filter { $0.kind == .eventTooLarge }
            #expect(refusals.count == 1)
            guard case .payloadTooLarge(let byteCount, let limit)? = refusals.first?.error else {
                Issue.record("expected a payloadTooLarge error, got \(String(describing: refusals.first?.error))")
                return
            }
            // Numbered 3 on the channel: the refused event took no number.
            #expect(byteCount == 16_777_217)
            #expect(limit == 16_777_216)
            #expect(refusals.first?.typeName == String(reflecting: ChatMessage.self))
            #expect(refusals.first?.channel == "chat")
            #expect(first.relay.counts.notSent == 1)
            #expect(second.relay.counts.received == 3)
            try await first.stop()
            try await second.stop()
        }
    }

    /// A type relayed sticky travels in its notification: a state over the
    /// notification limit is refused, with that limit.
    @Test func aStickyStateOverTheNotificationLimitIsRefused() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            try await first.waitUntilListening()
            first.broadcaster.post(
                OnlineUsers(names: [String(repeating: "n", count: 8000)]), sticky: true, isolation: nil)
            let refusals = try await first.reports.wait("the refusal") { reports in
                reports.contains { $0.kind == .eventTooLarge }
            }.filter { $0.kind == .eventTooLarge }
            guard case .payloadTooLarge(_, let limit)? = refusals.first?.error else {
                Issue.record("expected a payloadTooLarge error, got \(refusals)")
                return
            }
            #expect(limit == 7999)
            try await first.stop()
        }
    }

    /// A relay whose notification limit is set above the server's sends
    /// the event as a notification, the server refuses it, and the relay
    /// reports that and goes on: the server's refusal of one event of a
    /// batch does not stop the others.
    @Test func anEventTheServerRefusesIsReportedAndTheOthersOfItsBatchAreSent() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server) { $0.notificationLimit = 20_000 }
            let second = try RelayInstance("second", server: server)
            try await second.waitUntilListening()
            // Posted before the first relay connects, so that they wait, and
            // are sent, in one batch.
            first.post(1)
            first.broadcaster.post(ChatMessage(number: 2, text: String(repeating: "x", count: 9000)), isolation: nil)
            first.post(3)
            try await first.waitUntilListening()

            let received = try await second.messages.wait("the messages the server takes") { $0.count == 2 }
            #expect(received.map(\.number) == [1, 3])
            let refusals = try await first.reports.wait("the server's refusal") {
                $0.contains { $0.kind == .eventNotSent }
            }
            guard case .serverRejected? = refusals.first(where: { $0.kind == .eventNotSent })?.error else {
                Issue.record("expected a serverRejected error, got \(refusals)")
                return
            }
            #expect(first.relay.status == .listening)
            try await first.stop()
            try await second.stop()
        }
    }
}

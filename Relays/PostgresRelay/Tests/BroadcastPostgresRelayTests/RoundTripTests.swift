import Broadcast
import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct RoundTripTests {
    /// An event posted on one instance is posted on the other as the same
    /// typed value, once; the instance that posted it does not receive it
    /// back, although PostgreSQL delivers its own notification to it.
    @Test func anEventPostedOnOneInstanceIsPostedOnceOnTheOtherAndNotBackOnItsOwn() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await first.waitUntilListening()
            try await second.waitUntilListening()

            first.broadcaster.post(ChatMessage(number: 1, text: "Hello, ü 👋 \"quoted\" \\ /"), isolation: nil)
            let received = try await second.messages.wait("the message on the second instance") { $0.count == 1 }
            #expect(received == [ChatMessage(number: 1, text: "Hello, ü 👋 \"quoted\" \\ /")])

            // The reply commits after the first message's notification, so the
            // first instance has handled its own notification by the time the
            // reply reaches it.
            second.post(2)
            let seenByFirst = try await first.messages.wait("the reply on the first instance") { $0.count == 2 }
            #expect(seenByFirst.map(\.number) == [1, 2])
            #expect(second.numbers == [1, 2])
            #expect(first.relay.counts.ignoredEchoes == 1)
            #expect(first.relay.counts.received == 1)
            #expect(second.relay.counts.received == 1)
            try await first.stop()
            try await second.stop()
        }
    }

    /// A listener that posts an event of the relayed type while a received
    /// one is delivered (a reply) makes a post of its own, which is relayed:
    /// the relay tells the received event from it by its content, not by
    /// the thread it is posted on.
    @Test func anEventPostedByAListenerWhileAReceivedOneIsDeliveredIsRelayed() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            let replier = second.broadcaster.addRelayHandler(for: ChatMessage.self) {
                [broadcaster = second.broadcaster] in
                guard $0.number == 1 else { return }
                broadcaster.post(ChatMessage(number: 2, text: "reply"), isolation: nil)
            }
            try await first.waitUntilListening()
            try await second.waitUntilListening()

            first.post(1)
            let seen = try await first.messages.wait("the reply on the first instance") { $0.count == 2 }
            #expect(seen == [ChatMessage(number: 1, text: "first 1"), ChatMessage(number: 2, text: "reply")])
            #expect(second.numbers == [1, 2])
            replier.cancel()
            try await first.stop()
            try await second.stop()
        }
    }

    /// A reply identical to the received event is relayed too.
    ///
    /// Its JSON is the received event's: the relay's handler takes its first
    /// matching call for the received event and the second for the reply,
    /// whether the listener that replies was registered before the relay or
    /// after it.
    @Test(arguments: [true, false])
    func aReplyIdenticalToTheReceivedEventIsRelayed(repliesBeforeTheRelay: Bool) async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let replied = Collected<ChatMessage>()
            let replier = Collected<BroadcastToken>()
            let addReplier = { (broadcaster: Broadcaster) in
                replier.append(
                    broadcaster.addRelayHandler(for: ChatMessage.self) { [broadcaster] message in
                        guard replied.all.isEmpty else { return }
                        replied.append(message)
                        broadcaster.post(message, isolation: nil)
                    })
            }
            let second = try RelayInstance(
                "second", server: server, beforeRelaying: repliesBeforeTheRelay ? addReplier : { _ in })
            if !repliesBeforeTheRelay { addReplier(second.broadcaster) }
            try await first.waitUntilListening()
            try await second.waitUntilListening()

            first.post(1)
            let seen = try await first.messages.wait("the reply on the first instance") { $0.count == 2 }
            #expect(seen.map(\.number) == [1, 1])
            #expect(second.numbers == [1, 1])
            for token in replier.all { token.cancel() }
            try await first.stop()
            try await second.stop()
        }
    }

    /// Events of a type relayed with `sticky: true` are kept as the sticky
    /// event on the receiving instance; events of other types are not.
    @Test func aTypeRelayedStickyIsStickyOnTheReceivingInstance() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await first.waitUntilListening()
            try await second.waitUntilListening()

            first.broadcaster.post(OnlineUsers(names: ["ada", "grace"]), sticky: true, isolation: nil)
            first.post(1)
            try await second.messages.wait("the chat message") { $0.count == 1 }
            // Both travel in one batch, in posting order; the chat message is
            // on another channel, so wait for the sticky one itself.
            try await second.onlineUsers.wait("the online users") { $0.count == 1 }
            #expect(second.broadcaster.stickyEvent(for: OnlineUsers.self) == OnlineUsers(names: ["ada", "grace"]))
            #expect(second.broadcaster.stickyEvent(for: ChatMessage.self) == nil)
            try await first.stop()
            try await second.stop()
        }
    }

    /// Events posted before the relay connects wait in its buffer and are
    /// sent once it listens.
    @Test func eventsPostedBeforeTheRelayConnectsAreSentOnceItDoes() async throws {
        try await withServer { server in
            let second = try RelayInstance("second", server: server)
            try await second.waitUntilListening()
            let first = try RelayInstance("first", server: server)
            first.post(1)
            first.post(2)
            try await second.messages.wait("both messages") { $0.count == 2 }
            #expect(second.numbers == [1, 2])
            try await first.stop()
            try await second.stop()
        }
    }
}

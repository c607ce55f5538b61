import BroadcastPostgresRelay
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct ListeningTests {
    /// `listening()` returns once the relay listens, and at once when it
    /// already does; events posted then reach the other instance.
    @Test func listeningReturnsOnceTheRelayListens() async throws {
        try await withServer { server in
            let first = try RelayInstance("first", server: server)
            let second = try RelayInstance("second", server: server)
            try await within(.seconds(10), "the first relay listening") { try await first.relay.listening() }
            try await within(.seconds(10), "the second relay listening") { try await second.relay.listening() }
            #expect(first.relay.status == .listening)
            try await within(.seconds(5), "listening() on a listening relay") { try await first.relay.listening() }
            first.post(1)
            try await second.messages.wait("the message posted once both listen") { $0.count == 1 }
            try await first.stop()
            try await second.stop()
        }
    }

    /// A relay that cannot connect makes `listening()` throw the failed
    /// attempt's error; one that stopped makes it throw `relayStopped`.
    @Test func listeningThrowsWhyTheRelayDoesNotListen() async throws {
        let unreachable = try RelayInstance.unreachable()
        let failure = await #expect(throws: PostgresRelayError.self) {
            try await within(.seconds(10), "listening() to fail") { try await unreachable.relay.listening() }
        }
        #expect(failure?.code == .connectionFailed)

        try await unreachable.stop()
        let stopped = await #expect(throws: PostgresRelayError.self) {
            try await within(.seconds(5), "listening() on a stopped relay") { try await unreachable.relay.listening() }
        }
        #expect(stopped?.code == .relayStopped)
    }

    /// Every error has a code named as its case, to switch on and to label
    /// metrics with.
    @Test func everyErrorHasTheCodeOfItsCase() {
        struct Underlying: Error {}
        let errors: [(PostgresRelayError, PostgresRelayError.Code, String)] = [
            (.invalidChannel("", reason: "it is empty"), .invalidChannel, "invalidChannel"),
            (.duplicateChannel("chat"), .duplicateChannel, "duplicateChannel"),
            (.duplicateEventType("ChatMessage"), .duplicateEventType, "duplicateEventType"),
            (.alreadyRun, .alreadyRun, "alreadyRun"),
            (.payloadTooLarge(byteCount: 9000, limit: 7999), .payloadTooLarge, "payloadTooLarge"),
            (.encodingFailed(Underlying()), .encodingFailed, "encodingFailed"),
            (.outgoingBufferFull(capacity: 1), .outgoingBufferFull, "outgoingBufferFull"),
            (.relayStopped, .relayStopped, "relayStopped"),
            (.notRelayedInTransactions("Int"), .notRelayedInTransactions, "notRelayedInTransactions"),
            (.serverRejected(Underlying()), .serverRejected, "serverRejected"),
            (.sendInterrupted(Underlying()), .sendInterrupted, "sendInterrupted"),
            (.notAnEnvelope(payload: "", underlying: Underlying()), .notAnEnvelope, "notAnEnvelope"),
            (.unsupportedEnvelopeVersion(2), .unsupportedEnvelopeVersion, "unsupportedEnvelopeVersion"),
            (.eventNotDecodable(Underlying()), .eventNotDecodable, "eventNotDecodable"),
            (.connectionFailed(Underlying()), .connectionFailed, "connectionFailed"),
            (.connectionLost(Underlying()), .connectionLost, "connectionLost"),
        ]
        for (error, code, name) in errors {
            #expect(error.code == code)
            #expect(error.code.description == name)
        }
        #expect(Set(errors.map(\.1)).count == errors.count)
    }
}

import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport
import Testing

@Suite(.needsPostgres, .timeLimit(.minutes(1))) struct MalformedPayloadTests {
    /// Notifications on a relayed channel that are not relay envelopes (a
    /// `NOTIFY` written by hand), of another envelope version, or whose event
    /// does not decode as the relayed type (another version of the app) are
    /// each reported and skipped; the relay goes on listening.
    @Test func malformedPayloadsAreReportedAndSkippedAndTheRelayGoesOn() async throws {
        try await withServer { server in
            let receiver = try RelayInstance("receiver", server: server)
            let sender = try RelayInstance("sender", server: server)
            try await receiver.waitUntilListening()
            try await sender.waitUntilListening()
            let connection = try await server.connect()
            let payloads = [
                "hello",
                #"{"v":2,"seq":1,"path":["abc"],"event":{"number":1,"text":"from a newer relay"}}"#,
                #"{"v":1,"seq":1,"path":["abc"],"event":{"number":"one"}}"#,
                #"{"v":1,"seq":2,"path":["abc"],"event":{"number":7,"text":"written by hand"}}"#,
            ]
            for payload in payloads {
                try await connection.query("SELECT pg_notify('chat', \(payload))", logger: Logger(label: "test"))
            }
            try await connection.close()
            sender.post(8)

            let received = try await receiver.messages.wait("the two well-formed messages") { $0.count == 2 }
            #expect(
                received == [ChatMessage(number: 7, text: "written by hand"), ChatMessage(number: 8, text: "sender 8")])
            let skipped = try await receiver.reports.wait("the skipped payloads") { reports in
                reports.filter { $0.kind == .payloadSkipped }.count >= 3
            }.filter { $0.kind == .payloadSkipped }
            #expect(skipped.count == 3)
            #expect(skipped.allSatisfy { $0.channel == "chat" })
            var kinds: [String] = []
            for report in skipped {
                switch report.error {
                case .notAnEnvelope(let payload, _)?: kinds.append("notAnEnvelope \(payload)")
                case .unsupportedEnvelopeVersion(let version)?: kinds.append("unsupportedEnvelopeVersion \(version)")
                case .eventNotDecodable?: kinds.append("eventNotDecodable")
                default: kinds.append("\(String(describing: report.error))")
                }
            }
            #expect(kinds == ["notAnEnvelope hello", "unsupportedEnvelopeVersion 2", "eventNotDecodable"])
            #expect(receiver.relay.counts.skipped == 3)
            #expect(receiver.relay.status == .listening)
            try await receiver.stop()
            try await sender.stop()
        }
    }
}

import Broadcast
import Foundation
import InMemoryTracing
import Instrumentation
import Logging
import PostgresNIO
import RelayTestSupport
import Testing
import Tracing

@testable import BroadcastPostgresRelay

/// The trace context of a post travels in the envelope, and the receiving
/// instance posts the event inside it.
///
/// Each instance's tracer is bound to its tasks with `withTracer`, a
/// task-local: the relay's tasks, started inside it, inherit it, and the
/// global `InstrumentationSystem` is never bootstrapped, so that the tests
/// can run in parallel.
@Suite(.timeLimit(.minutes(1))) struct TraceContextTests {
    static let own = "00000000000000aa"

    /// The trace context's values are read back from the envelope exactly,
    /// escapes included, beside the event and the number.
    @Test func anEnvelopeCarriesItsTraceContextExactly() throws {
        let values = ["traceparent": "00-4bf92f-00f067-01", "odd \"key\"": "back\\slash, comma} and brace"]
        let trace = TraceCarrier(values: values)
        let trail = RelayTrail(sequence: 3, path: [Self.own])
        let eventJSON = #"{"number":1,"text":"}"}"#
        let read = try #require(WrittenEnvelope(reading: trail.payload(eventJSON: eventJSON, number: 9, trace: trace)))
        #expect(read.trace?.values == values)
        #expect(read.eventJSON.map(String.init) == eventJSON)
        #expect(read.number == 9)
        #expect(read.numberingSender == Self.own)

        let cleared = try #require(WrittenEnvelope(reading: trail.clearedPayload(number: 2, trace: trace)))
        #expect(cleared.trace?.values == values)
        #expect(cleared.eventJSON == nil)

        let (head, tail) = trail.transactionalPayload(eventJSON: eventJSON, trace: trace)
        let transactional = try #require(WrittenEnvelope(reading: head + "12" + tail))
        #expect(transactional.isTransactional)
        #expect(transactional.number == 12)
        #expect(transactional.trace?.values == values)
        #expect(transactional.numberingSender == Self.own + "/tx")

        // Decoded whole, as a payload laid out otherwise is.
        let decoded = try JSONDecoder().decode(
            RelayEnvelope<ChatMessage>.self, from: Data((head + "12" + tail).utf8))
        #expect(decoded.trace == values && decoded.tx == true && decoded.n == 12)
    }

    /// Without a context, or with an instrument that injects nothing, the
    /// envelope has no `trace` field.
    @Test func withoutATraceContextTheEnvelopeHasNoTraceField() {
        #expect(TraceCarrier.current() == nil)
        var context = ServiceContext.topLevel
        context.inMemorySpanContext = InMemorySpanContext(traceID: "t", spanID: "s", parentSpanID: nil)
        // No tracer bound: the no-op instrument injects nothing.
        ServiceContext.withValue(context) {
            #expect(TraceCarrier.current() == nil)
        }
        withTracer(InMemoryTracer()) {
            ServiceContext.withValue(context) {
                #expect(TraceCarrier.current()?.values == ["in-memory-trace-id": "t", "in-memory-span-id": "s"])
            }
        }
        let payload = RelayTrail(sequence: 1, path: [Self.own]).payload(eventJSON: "{}", number: 1)
        #expect(!payload.contains("trace"))
    }

    /// A listener on the receiving instance runs in the trace of the span
    /// that posted the event, whether posted on the broadcaster or in a
    /// transaction; an event posted outside any span arrives without one.
    @Test(.needsPostgres) func aReceivingListenerRunsInTheSendersTrace() async throws {
        try await withServer { server in
            let senderTracer = InMemoryTracer()
            let receiverTracer = InMemoryTracer()
            let sender = try withTracer(senderTracer) { try RelayInstance("sender", server: server) }
            let receiver = try withTracer(receiverTracer) { try RelayInstance("receiver", server: server) }
            let traces = Collected<String?>()
            let token = receiver.broadcaster.addHandler(for: ChatMessage.self) { _ in
                traces.append(ServiceContext.current?.inMemorySpanContext?.traceID)
            }
            try await sender.waitUntilListening()
            try await receiver.waitUntilListening()

            let posted = withTracer(senderTracer) {
                withSpan("post a message") { span in
                    sender.post(1)
                    return span.context.inMemorySpanContext?.traceID
                }
            }
            sender.post(2)
            // Committed before the transaction below, which would otherwise
            // race the relay's own statement.
            try await traces.wait("the first two events") { $0.count == 2 }
            let app = try await server.connect()
            let postedInTransaction: String?
            do {
                postedInTransaction = try await withTracer(senderTracer) {
                    try await withSpan("post in a transaction") { span in
                        try await app.withTransaction(logger: Logger(label: "test")) { connection in
                            try await sender.relay.post(
                                ChatMessage(number: 3, text: "traced"), inTransactionOn: connection)
                        }
                        return span.context.inMemorySpanContext?.traceID
                    }
                }
            } catch {
                try? await app.close()
                throw error
            }
            try await app.close()

            let seen = try await traces.wait("the three events") { $0.count == 3 }
            #expect(posted != nil && postedInTransaction != nil && posted != postedInTransaction)
            #expect(seen == [posted, nil, postedInTransaction])
            #expect(receiver.numbers == [1, 2, 3])
            withExtendedLifetime(token) {}
            try await sender.stop()
            try await receiver.stop()
        }
    }
}

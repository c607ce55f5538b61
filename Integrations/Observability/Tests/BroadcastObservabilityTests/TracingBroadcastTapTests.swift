import Broadcast
import BroadcastTracing
import InMemoryTracing
import Testing
import Tracing

@Suite("TracingBroadcastTap: a span per broadcast and post")
struct TracingBroadcastTapTests {
    @Test("A broadcast is one ended span over its synchronous part, named and described by what was observed")
    func broadcastSpan() throws {
        let tracer = InMemoryTracer()
        let recorder = RecordingTap()
        let broadcaster = Broadcaster(tap: Taps(recorder, TracingBroadcastTap(tracer: tracer)))
        let spy = SessionSpy()
        broadcaster.addListener(spy)

        broadcaster.sessionStarted(id: 1, sticky: true)

        let observation = try #require(recorder.observations.only)
        #expect(tracer.activeSpans.isEmpty)
        let span = try #require(tracer.finishedSpans.only)
        #expect(span.operationName == "\(observation.kind) \(observation.subjectName)")
        #expect(span.kind == .internal)
        #expect(span.parentSpanID == nil)
        #expect(
            span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
                == UInt64(observation.nanoseconds))
        #expect(span.attributes["broadcast.kind"]?.toSpanAttribute() == .string(observation.kind.description))
        #expect(span.attributes["broadcast.subject"]?.toSpanAttribute() == .string(observation.subjectName))
        #expect(span.attributes["broadcast.called"]?.toSpanAttribute() == .int64(1))
        #expect(span.attributes["broadcast.scheduled"]?.toSpanAttribute() == .int64(0))
        #expect(span.attributes["broadcast.main_thread"]?.toSpanAttribute() == .bool(observation.ranOnMainThread))
        #expect(span.attributes["broadcast.sticky"]?.toSpanAttribute() == .bool(true))
    }

    @Test("A post made inside a span is that span's child")
    func childOfTheCallersSpan() throws {
        let tracer = InMemoryTracer()
        let broadcaster = Broadcaster(tap: TracingBroadcastTap(tracer: tracer))
        let token = broadcaster.addHandler(for: SessionEnded.self) { _ in }

        let request = tracer.startSpan("request")
        let calls = ServiceContext.withValue(request.context) {
            broadcaster.post(SessionEnded(id: 1))
        }
        request.end()
        withExtendedLifetime(token) {}

        #expect(calls == 1)
        let spans = tracer.finishedSpans
        try #require(spans.count == 2)
        let (post, parent) = (spans[0], spans[1])
        #expect(post.operationName.hasPrefix("\(BroadcastObservation.Kind.post) "))
        #expect(post.operationName.contains("SessionEnded"))
        #expect(post.parentSpanID == parent.spanID)
        #expect(post.traceID == parent.traceID)
    }
}

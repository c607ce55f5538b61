import Broadcast
import BroadcastMetrics
import Dispatch
import MetricsTestKit
import Testing

@Suite("MetricsBroadcastTap: a counter and a timer per subject and kind")
struct MetricsBroadcastTapTests {
    @Test("Each broadcast and post counts once and records its duration, under its own kind and subject")
    func countsAndTimes() throws {
        let metrics = TestMetrics()
        let recorder = RecordingTap()
        let broadcaster = Broadcaster(tap: Taps(recorder, MetricsBroadcastTap(factory: metrics)))
        let spy = SessionSpy()
        broadcaster.addListener(spy)
        let token = broadcaster.addHandler(for: SessionEnded.self) { _ in }

        broadcaster.sessionStarted(id: 1)
        broadcaster.sessionStarted(id: 2)
        broadcaster.post(SessionEnded(id: 1))
        withExtendedLifetime(token) {}

        let observations = recorder.observations
        try #require(observations.map(\.kind) == [.broadcast, .broadcast, .post])
        let started = dimensions(of: observations[0])
        let ended = dimensions(of: observations[2])
        #expect(try metrics.expectCounter("broadcasts", started).totalValue == 2)
        #expect(try metrics.expectCounter("broadcasts", ended).totalValue == 1)
        #expect(metrics.counters.count == 2)
        #expect(try metrics.expectTimer("broadcast.duration", started).values == observations[0...1].map(\.nanoseconds))
        #expect(try metrics.expectTimer("broadcast.duration", ended).values == [observations[2].nanoseconds])
        #expect(metrics.timers.count == 2)
    }

    @Test("A subject's metrics are asked of the factory once, at its first broadcast of each kind")
    func madeOncePerSubjectAndKind() {
        let factory = CountingMetricsFactory()
        let broadcaster = Broadcaster(tap: MetricsBroadcastTap(factory: factory))
        let token = broadcaster.addHandler(for: SessionEnded.self) { _ in }

        for id in 0..<5 {
            broadcaster.sessionStarted(id: id)
            broadcaster.post(SessionEnded(id: id))
        }
        withExtendedLifetime(token) {}

        #expect(factory.counterRequests == 2)
        #expect(factory.timerRequests == 2)
        #expect(factory.metrics.counterTotal(label: "broadcasts") == 10)
    }

    @Test("First broadcasts racing on several threads are all counted, by one counter", .timeLimit(.minutes(1)))
    func racingFirstBroadcasts() throws {
        let threads = 4
        let broadcastsPerThread = 50
        for _ in 0..<20 {
            let metrics = TestMetrics()
            let broadcaster = Broadcaster(tap: MetricsBroadcastTap(factory: metrics))
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for id in 0..<broadcastsPerThread { broadcaster.sessionStarted(id: id) }
            }
            let counter = try #require(metrics.counters.only)
            #expect(counter.totalValue == Int64(threads * broadcastsPerThread))
            #expect(counter.label == "broadcasts")
        }
    }

    private func dimensions(of observation: BroadcastObservation) -> [(String, String)] {
        [("broadcast.kind", observation.kind.description), ("broadcast.subject", observation.subjectName)]
    }
}

extension BroadcastObservation {
    /// The duration in whole nanoseconds, as a timer records it.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

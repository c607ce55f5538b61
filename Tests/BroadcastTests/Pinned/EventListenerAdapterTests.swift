import Broadcast
import Testing

/// A reading posted as a value to the adapter tests' listeners.
struct GaugeReading: Sendable {
    let value: Int
}

/// A gauge (a class with no actor of its own) is also an `EventListener`
/// of readings on the main actor only.
extension MainActorGauge: @MainActor EventListener {
    @MainActor func receive(_ event: GaugeReading) {
        log.record("\(name):\(event.value)@\(mainQueueOrElsewhere)")
    }
}

/// Pinned: a post calls an `EventListener` object through the typed call it
/// made after a cast proved the conformance, only where that cast is proven
/// to succeed again: a conformance isolated to the main actor is used on the
/// main actor only.
@Suite("Pinned: an EventListener's typed call made on the main actor is used only there", .timeLimit(.minutes(1)))
struct EventListenerAdapterTests {
    /// A post from non-isolated code, so its `#isolation` is nil.
    static func post(_ value: Int, with broadcaster: Broadcaster) -> Int {
        broadcaster.post(GaugeReading(value: value))
    }

    @Test func aTypedCallMadeOnTheMainActorIsNotUsedOffIt() async {
        let broadcaster = Broadcaster(onDiagnostic: { _ in })
        let log = EventLog()
        let gauge = MainActorGauge("gauge", log: log)
        broadcaster.addListener(gauge)  // no actor: only its conformance keeps it off other threads

        // On the main actor the cast succeeds: the post keeps the typed call.
        let onMainActor = await MainActor.run { broadcaster.post(GaugeReading(value: 1)) }
        // From a plain thread, that call must not stand for a cast that fails there.
        let elsewhere = await onNewThread { Self.post(2, with: broadcaster) }
        await broadcaster.waitForScheduledDeliveries()
        // Settled by the main actor since: the call goes there, counted.
        let settled = await onNewThread { Self.post(3, with: broadcaster) }
        await broadcaster.waitForScheduledDeliveries()
        let againOnMainActor = await MainActor.run { broadcaster.post(GaugeReading(value: 4)) }

        #expect(onMainActor == 1)
        #expect(elsewhere == 0)
        #expect(settled == 1)
        #expect(againOnMainActor == 1)
        // The post made elsewhere reached it through the main actor, uncounted.
        #expect(log.all == ["gauge:1@main queue", "gauge:2@main queue", "gauge:3@main queue", "gauge:4@main queue"])
        withExtendedLifetime(gauge) {}
    }
}

import Broadcast
import Testing

/// Told a reading; the main-actor conformance tests broadcast it.
protocol GaugeListener: AnyObject {
    func gaugeRead(_ value: Int)
}

/// Told a reading asynchronously; the same, for awaited broadcasts.
protocol AsyncGaugeListener: AnyObject {
    func gaugeRead(_ value: Int) async
}

/// A class with no actor of its own whose conformances are isolated to the
/// main actor: a gauge is a `GaugeListener` on the main actor only.
final class MainActorGauge: Sendable {
    let name: String
    let log: EventLog

    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
}

extension MainActorGauge: @MainActor GaugeListener {
    @MainActor func gaugeRead(_ value: Int) {
        log.record("\(name):\(value)@\(mainQueueOrElsewhere)")
    }
}

extension MainActorGauge: @MainActor AsyncGaugeListener {
    @MainActor func gaugeRead(_ value: Int) async {
        log.record("\(name):\(value)@\(mainQueueOrElsewhere)")
    }
}

/// Pinned: what a call on the main actor learns about a listener class's
/// conformance holds on the main queue only.
///
/// A conformance isolated to the main actor is never used off the main
/// actor, also for a listener of that class registered later, from
/// non-isolated code (which has no actor, so nothing but its conformance
/// keeps it from being called where a broadcast runs): whatever a call on the
/// main actor found out about the class must not carry over to other places.
@Suite("Pinned: a main-actor conformance found on the main actor is used only there", .timeLimit(.minutes(1)))
struct MainActorConformanceTests {
    /// A broadcaster whose debug-build diagnostics are collected, not
    /// printed: registering a gauge from non-isolated code is reported.
    static func quietBroadcaster() -> Broadcaster {
        Broadcaster(onDiagnostic: { _ in })
    }

    /// A broadcast from non-isolated code, so its `#isolation` is nil.
    static func broadcastReading(_ value: Int, with broadcaster: Broadcaster) -> Int {
        broadcaster.broadcast(to: GaugeListener.self) { $0.gaugeRead(value) }
    }

    @Test func aConformanceLearnedByAScheduledCallIsNotUsedOffTheMainQueue() async {
        let broadcaster = Self.quietBroadcaster()
        let log = EventLog()
        let taught = MainActorGauge("taught", log: log)
        await MainActor.run { _ = broadcaster.addListener(taught) }  // registered on the main actor

        // From a main-queue block that cannot check the isolated conformance
        // (Linux: the test runner services the main queue off the main
        // thread), the call is scheduled; on the main actor its cast
        // succeeds and teaches the index the gauge class's cast result.
        let first = await onMainQueueBlock { Self.broadcastReading(1, with: broadcaster) }
        await broadcaster.waitForScheduledDeliveries()

        // A gauge registered from non-isolated code has no actor: a broadcast
        // from a plain thread would call it there if the learned result
        // were taken as valid there.
        let later = MainActorGauge("later", log: log)
        broadcaster.addListener(later)
        let second = await onNewThread { Self.broadcastReading(2, with: broadcaster) }
        await broadcaster.waitForScheduledDeliveries()

        #expect(first == 1)
        #expect(second == 1)
        // `later` is reached through the main actor, whose cast makes the call.
        #expect(log.all == ["taught:1@main queue", "taught:2@main queue", "later:2@main queue"])
        withExtendedLifetime((taught, later)) {}
    }

    @Test func aConformanceLearnedByAnAwaitedCallIsNotUsedOffTheMainQueue() async {
        let broadcaster = Self.quietBroadcaster()
        let log = EventLog()
        let taught = MainActorGauge("taught", log: log)
        await MainActor.run { _ = broadcaster.addListener(taught) }

        // Broadcast from a task with no actor, the index takes the gauge in
        // without a cast result (its conformance cannot be checked there);
        // the call, made on the main actor, learns it.
        let first = await Task.detached {
            await broadcaster.broadcast(awaitingEach: AsyncGaugeListener.self) { await $0.gaugeRead(1) }
        }.value

        let later = MainActorGauge("later", log: log)
        broadcaster.addListener(later)  // no actor
        let awaitedElsewhere = await Task.detached {
            await broadcaster.broadcast(awaitingEach: AsyncGaugeListener.self) { await $0.gaugeRead(2) }
        }.value
        // The same index serves a synchronous broadcast to the protocol; from
        // a plain thread, the closure must not be handed the later gauge
        // there: the awaited call found its conformance isolated to the main
        // actor, so its call goes there.
        let synchronousElsewhere = await onNewThread {
            broadcaster.broadcast(to: AsyncGaugeListener.self) { listener in
                let name = (listener as AnyObject as? MainActorGauge)?.name ?? "?"
                log.record("\(name):3 handed out@\(mainQueueOrElsewhere)")
            }
        }
        await broadcaster.waitForScheduledDeliveries()

        #expect(first == 1)
        #expect(awaitedElsewhere == 2)
        #expect(synchronousElsewhere == 2)
        #expect(
            log.all == [
                "taught:1@main queue", "taught:2@main queue", "later:2@main queue", "taught:3 handed out@main queue",
                "later:3 handed out@main queue",
            ])
        withExtendedLifetime((taught, later)) {}
    }
}

import CoreMetrics
import MetricsTestKit
import Synchronization

/// swift-metrics' `TestMetrics`, counting how often it is asked for a counter
/// or a timer.
final class CountingMetricsFactory: MetricsFactory {
    let metrics = TestMetrics()
    private let requests = Mutex((counters: 0, timers: 0))

    var counterRequests: Int { requests.withLock { $0.counters } }
    var timerRequests: Int { requests.withLock { $0.timers } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        requests.withLock { $0.counters += 1 }
        return metrics.makeCounter(label: label, dimensions: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        requests.withLock { $0.timers += 1 }
        return metrics.makeTimer(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        metrics.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        metrics.makeMeter(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { metrics.destroyCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { metrics.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { metrics.destroyTimer(handler) }
    func destroyMeter(_ handler: any MeterHandler) { metrics.destroyMeter(handler) }
}

import Broadcast
import CoreMetrics
import Logging
import Synchronization

/// A tap that does nothing: what the broadcaster's call to a tap costs.
struct DiscardingTap: BroadcastTap {
    func observe(_ observation: BroadcastObservation) {}
}

/// A log handler that drops every line handed to it, so that a row times the
/// tap and swift-log, not an output.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(logLevel: Logger.Level) {
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}

/// Handlers that add with one atomic operation each, as a cheap real backend
/// would, found by label and dimensions in a locked table, as a factory that
/// hands out one handler per metric does.
final class AtomicMetricsFactory: MetricsFactory {
    private let handlers = Mutex<[String: AtomicHandler]>([:])

    private func handler(label: String, dimensions: [(String, String)]) -> AtomicHandler {
        let key = ([label] + dimensions.map { "\($0.0)=\($0.1)" }).joined(separator: ",")
        return handlers.withLock { table in
            if let handler = table[key] { return handler }
            let handler = AtomicHandler()
            table[key] = handler
            return handler
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        handler(label: label, dimensions: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        handler(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        handler(label: label, dimensions: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        handler(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
}

/// One metric's value, added to atomically.
final class AtomicHandler: CounterHandler, TimerHandler, RecorderHandler, MeterHandler, Sendable {
    private let total = Atomic<Int64>(0)

    func increment(by amount: Int64) { total.add(amount, ordering: .relaxed) }
    func reset() { total.store(0, ordering: .relaxed) }
    func recordNanoseconds(_ duration: Int64) { total.add(duration, ordering: .relaxed) }
    func record(_ value: Int64) { total.add(value, ordering: .relaxed) }
    func record(_ value: Double) { total.add(Int64(value), ordering: .relaxed) }
    func set(_ value: Int64) { total.store(value, ordering: .relaxed) }
    func set(_ value: Double) { total.store(Int64(value), ordering: .relaxed) }
    func increment(by amount: Double) { total.add(Int64(amount), ordering: .relaxed) }
    func decrement(by amount: Double) { total.subtract(Int64(amount), ordering: .relaxed) }
}

/// What `MetricsBroadcastTap` would cost if it kept no metrics: a `Counter`
/// and a `Timer` made per broadcast, as `Counter(label:dimensions:)` in the
/// broadcasting code would.
struct UncachedMetricsTap: BroadcastTap {
    let factory: any MetricsFactory

    func observe(_ observation: BroadcastObservation) {
        let dimensions = [
            ("broadcast.kind", observation.kind.description), ("broadcast.subject", observation.subjectName),
        ]
        Counter(label: "broadcasts", dimensions: dimensions, factory: factory).increment()
        let (seconds, attoseconds) = observation.duration.components
        Timer(label: "broadcast.duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

import Broadcast
import BroadcastLogging
import BroadcastMetrics
import BroadcastTracing
import InMemoryTracing
import Logging
import Metrics
import Tracing

// What each tap adds to one broadcast to one listener, in a release build:
//
//   swift run -c release --package-path Integrations/Observability ObservabilityBenchmark [--quick]
//
// Each row is the fastest of many short rounds, in nanoseconds per
// broadcast; a scheduler on a shared machine only lengthens a round. The
// first row has no tap; "cost" is a row's time less that one's, "beyond the
// tap" less the time with a tap that does nothing: what the adapter adds to
// the broadcaster's call of its tap.

let arguments = CommandLine.arguments.dropFirst()
let rounds = arguments.contains("--quick") ? 5 : 200
let broadcastsPerRound = 2_000

protocol TickListener: AnyObject {
    func tick(_ value: Int)
}

final class TickCounter: TickListener, Sendable {
    func tick(_ value: Int) {}
}

/// The fastest round's nanoseconds per broadcast of a broadcaster with `tap`
/// (none if nil); `betweenRounds` runs untimed after each round.
func nanosecondsPerBroadcast(tap: (any BroadcastTap)?, betweenRounds: () -> Void = {}) -> Double {
    let broadcaster = tap.map { Broadcaster(tap: $0) } ?? Broadcaster()
    let listener = TickCounter()
    broadcaster.addListener(listener)
    let clock = ContinuousClock()
    var fastest = Duration.seconds(3600)
    for _ in 0..<rounds {
        let elapsed = clock.measure {
            for value in 0..<broadcastsPerRound {
                broadcaster.broadcast(to: TickListener.self, with: value) { $0.tick($1) }
            }
        }
        fastest = min(fastest, elapsed)
        betweenRounds()
    }
    withExtendedLifetime(listener) {}
    let (seconds, attoseconds) = fastest.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return nanoseconds / Double(broadcastsPerRound)
}

let noTap = nanosecondsPerBroadcast(tap: nil)
let nothingTap = nanosecondsPerBroadcast(tap: DiscardingTap())
var rows: [(String, Double)] = [("no tap", noTap), ("a tap that does nothing", nothingTap)]

let quietHandler = DiscardingLogHandler(logLevel: .info)
rows.append(
    (
        "LoggingBroadcastTap, level below the logger's (.debug to .info)",
        nanosecondsPerBroadcast(tap: LoggingBroadcastTap(logger: Logger(label: "bench") { _ in quietHandler }))
    ))
let loudHandler = DiscardingLogHandler(logLevel: .debug)
rows.append(
    (
        "LoggingBroadcastTap, line built and handed to a handler that drops it",
        nanosecondsPerBroadcast(tap: LoggingBroadcastTap(logger: Logger(label: "bench") { _ in loudHandler }))
    ))

rows.append(
    (
        "MetricsBroadcastTap, swift-metrics' no-op handlers",
        nanosecondsPerBroadcast(tap: MetricsBroadcastTap(factory: NOOPMetricsHandler.instance))
    ))
let atomicFactory = AtomicMetricsFactory()
rows.append(
    (
        "MetricsBroadcastTap, handlers that add atomically",
        nanosecondsPerBroadcast(tap: MetricsBroadcastTap(factory: atomicFactory))
    ))
rows.append(
    (
        "(for comparison) a Counter and a Timer made per broadcast, from a factory that finds its handlers in a locked table",
        nanosecondsPerBroadcast(tap: UncachedMetricsTap(factory: atomicFactory))
    ))

rows.append(
    ("TracingBroadcastTap, NoOpTracer", nanosecondsPerBroadcast(tap: TracingBroadcastTap(tracer: NoOpTracer()))))
let tracer = InMemoryTracer()
rows.append(
    (
        "TracingBroadcastTap, InMemoryTracer (keeps each span)",
        nanosecondsPerBroadcast(tap: TracingBroadcastTap(tracer: tracer), betweenRounds: { tracer.clearAll() })
    ))

print("rounds: \(rounds) of \(broadcastsPerRound) broadcasts to one listener; fastest round")
print("| tap | ns per broadcast | cost | beyond the tap |")
print("| --- | ---: | ---: | ---: |")
for (index, (name, nanoseconds)) in rows.enumerated() {
    let cost = index < 1 ? "" : String(Int((nanoseconds - noTap).rounded()))
    let beyond = index < 2 ? "" : String(Int((nanoseconds - nothingTap).rounded()))
    print("| \(name) | \(Int(nanoseconds.rounded())) | \(cost) | \(beyond) |")
}

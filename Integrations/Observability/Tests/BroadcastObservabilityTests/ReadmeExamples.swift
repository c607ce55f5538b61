import Broadcast
import BroadcastLogging
import BroadcastMetrics
import BroadcastTracing
import Logging
import Metrics
import Tracing

/// The README's Swift blocks, as written there; `everyReadmeBlockIsCompiled`
/// finds each of them in this package's sources (`Taps` is in Support/).
enum ReadmeExamples {
    static func broadcasterWithMetrics() -> Broadcaster {
        let broadcaster = Broadcaster(tap: MetricsBroadcastTap())
        return broadcaster
    }

    static func tapOfTheSharedBroadcaster() {
        Broadcaster.shared.setTap(MetricsBroadcastTap())
    }

    static func broadcasterWithThreeTaps() -> Broadcaster {
        let broadcaster = Broadcaster(
            tap: Taps(
                LoggingBroadcastTap(logger: Logger(label: "app.broadcasts")),
                MetricsBroadcastTap(),
                TracingBroadcastTap()))
        return broadcaster
    }

    static func loggingTap() -> some BroadcastTap {
        let tap = LoggingBroadcastTap(logger: Logger(label: "app.broadcasts"), level: .trace)
        return tap
    }

    static func metricsTap() -> some BroadcastTap {
        let tap = MetricsBroadcastTap(factory: MetricsSystem.factory)
        return tap
    }

    static func tracingTap() -> some BroadcastTap {
        let tap = TracingBroadcastTap(tracer: InstrumentationSystem.tracer)
        return tap
    }
}

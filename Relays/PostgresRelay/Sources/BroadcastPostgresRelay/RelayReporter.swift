import Logging
import NIOConcurrencyHelpers

/// Hands every report to the logger and to the streams of
/// ``PostgresRelay/reports()``, and keeps the relay's status and counts.
final class RelayReporter: Sendable {
    let counters = RelayCounters()
    private let logger: Logger

    private struct Subscribers {
        var continuations: [Int: AsyncStream<RelayReport>.Continuation] = [:]
        var nextKey = 0
        var finished = false
    }

    private let subscribers = NIOLockedValueBox(Subscribers())
    private let currentStatus = NIOLockedValueBox(PostgresRelay.Status.idle)

    init(logger: Logger) {
        self.logger = logger
    }

    var status: PostgresRelay.Status {
        get { currentStatus.withLockedValue { $0 } }
        set { currentStatus.withLockedValue { $0 = newValue } }
    }

    func report(_ report: RelayReport) {
        counters.count(report)
        logger.log(level: Self.level(of: report.kind), "\(report.description)")
        let continuations = subscribers.withLockedValue { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.yield(report)
        }
    }

    /// A new stream of the reports made from now on; it ends when the relay
    /// stops.
    func makeStream() -> AsyncStream<RelayReport> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: RelayReport.self, bufferingPolicy: .bufferingNewest(1000))
        let key: Int? = subscribers.withLockedValue { subscribers in
            guard !subscribers.finished else { return nil }
            defer { subscribers.nextKey += 1 }
            subscribers.continuations[subscribers.nextKey] = continuation
            return subscribers.nextKey
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLockedValue { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// Ends every stream, after the last report.
    func finish() {
        let continuations = subscribers.withLockedValue { subscribers in
            subscribers.finished = true
            defer { subscribers.continuations = [:] }
            return Array(subscribers.continuations.values)
        }
        for continuation in continuations {
            continuation.finish()
        }
    }

    private static func level(of kind: RelayReport.Kind) -> Logger.Level {
        switch kind {
        case .eventTooLarge, .eventNotSent: .error
        case .connectionFailed, .connectionLost, .eventMayBeLost, .payloadSkipped: .warning
        case .resumed: .notice
        default: .info
        }
    }
}

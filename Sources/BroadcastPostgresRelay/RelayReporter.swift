#if PostgresRelay
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

        /// The relay's status, and the callers of ``PostgresRelay/listening()``
        /// waiting for it to listen.
        private struct Life {
            var status = PostgresRelay.Status.idle
            var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
            var nextWaiter = 0

            /// The waiters, removed.
            mutating func takeWaiters() -> [CheckedContinuation<Void, any Error>] {
                defer { waiters = [:] }
                return Array(waiters.values)
            }
        }

        private let subscribers = NIOLockedValueBox(Subscribers())
        private let life = NIOLockedValueBox(Life())

        init(logger: Logger) {
            self.logger = logger
        }

        /// The relay's status; listening or stopped ends the waits of
        /// ``waitUntilListening()``.
        var status: PostgresRelay.Status {
            get { life.withLockedValue { $0.status } }
            set {
                let waiters = life.withLockedValue { life in
                    life.status = newValue
                    return newValue == .listening || newValue == .stopped ? life.takeWaiters() : []
                }
                for waiter in waiters {
                    if newValue == .listening {
                        waiter.resume()
                    } else {
                        waiter.resume(throwing: PostgresRelayError.relayStopped)
                    }
                }
            }
        }

        /// Returns once the relay listens (at once if it does); throws the
        /// error of the next failed connection attempt, ``PostgresRelayError/relayStopped``
        /// once the relay has stopped, or `CancellationError`.
        func waitUntilListening() async throws {
            let key = life.withLockedValue { life in
                defer { life.nextWaiter += 1 }
                return life.nextWaiter
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    // Checked under the lock `onCancel` takes: either it finds
                    // the waiter, or this sees the cancellation.
                    let outcome: Result<Void, any Error>? = life.withLockedValue { life in
                        switch life.status {
                        case .listening: return .success(())
                        case .stopped: return .failure(PostgresRelayError.relayStopped)
                        case .idle, .connecting, .reconnecting:
                            if Task.isCancelled { return .failure(CancellationError()) }
                            life.waiters[key] = continuation
                            return nil
                        }
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let waiter = life.withLockedValue { $0.waiters.removeValue(forKey: key) }
                waiter?.resume(throwing: CancellationError())
            }
        }

        func report(_ report: RelayReport) {
            counters.count(report)
            if report.kind == .connectionFailed, let error = report.error {
                for waiter in life.withLockedValue({ $0.takeWaiters() }) { waiter.resume(throwing: error) }
            }
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
#endif

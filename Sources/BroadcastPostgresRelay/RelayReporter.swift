#if PostgresRelay
    import Logging
    import NIOConcurrencyHelpers

    /// Hands every report to the logger and to the streams of
    /// ``PostgresRelay/reports()``, and keeps the relay's status and counts.
    final class RelayReporter: Sendable {
        let counters = RelayCounters()
        private let logger: Logger

        private struct Subscribers {
            /// Held weakly: a stream its consumer dropped is fed no more.
            var streams: [Weak] = []
            var finished = false

            struct Weak {
                weak var stream: ReportStream?
            }
        }

        /// The unread reports each stream keeps.
        static let streamCapacity = 1000

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
            let streams = subscribers.withLockedValue { subscribers in
                subscribers.streams.removeAll { $0.stream == nil }
                return subscribers.streams.compactMap(\.stream)
            }
            for stream in streams {
                stream.append(report)
            }
        }

        /// A new stream of the reports made from now on; it ends when the relay
        /// stops.
        func makeStream() -> AsyncStream<RelayReport> {
            let stream = subscribers.withLockedValue { subscribers in
                let stream = ReportStream(capacity: Self.streamCapacity, finished: subscribers.finished)
                if !subscribers.finished { subscribers.streams.append(Subscribers.Weak(stream: stream)) }
                return stream
            }
            return stream.asyncStream
        }

        /// Ends every stream, after the last report.
        func finish() {
            let streams = subscribers.withLockedValue { subscribers in
                subscribers.finished = true
                defer { subscribers.streams = [] }
                return subscribers.streams.compactMap(\.stream)
            }
            for stream in streams {
                stream.finish()
            }
        }

        private static func level(of kind: RelayReport.Kind) -> Logger.Level {
            switch kind {
            case .eventTooLarge, .eventNotSent, .eventsLost: .error
            case .connectionFailed, .connectionLost, .eventMayBeLost, .payloadSkipped: .warning
            case .resumed: .notice
            default: .info
            }
        }
    }
#endif

#if PostgresRelay
    import NIOConcurrencyHelpers

    /// One stream of ``PostgresRelay/reports()``: the reports its consumer has
    /// not read yet, and the consumer waiting for the next.
    final class ReportStream: Sendable {
        private struct State {
            var unread: UnreadReports
            var consumer: CheckedContinuation<RelayReport?, Never>?
            /// No report is added from now on; those unread are still read.
            var finished = false
        }

        private enum Next {
            case report(RelayReport)
            case end
            case wait
        }

        private let state: NIOLockedValueBox<State>

        init(capacity: Int, finished: Bool = false) {
            state = NIOLockedValueBox(State(unread: UnreadReports(capacity: capacity), finished: finished))
        }

        /// The stream a consumer iterates; it holds this object, so that the
        /// relay's reporter, which holds it weakly, stops feeding it once the
        /// stream is dropped.
        var asyncStream: AsyncStream<RelayReport> {
            AsyncStream(unfolding: { [self] in await next() })
        }

        /// Hands `report` to the waiting consumer, or keeps it unread.
        func append(_ report: RelayReport) {
            let (consumer, dropped): (CheckedContinuation<RelayReport?, Never>?, RelayReport?) =
                state.withLockedValue { state in
                    if state.finished { return (nil, nil) }
                    if let consumer = state.consumer {
                        state.consumer = nil
                        return (consumer, nil)
                    }
                    return (nil, state.unread.append(report))
                }
            consumer?.resume(returning: report)
            _ = dropped  // released here, outside the lock
        }

        /// Ends the stream once its unread reports are read.
        func finish() {
            let consumer = state.withLockedValue { state in
                state.finished = true
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(returning: nil)
        }

        /// The oldest unread report, once there is one; `nil` once the stream
        /// is finished and read, or the consuming task is cancelled.
        private func next() async -> RelayReport? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<RelayReport?, Never>) in
                    // Decided under the lock `onCancel` takes: either it finds
                    // the consumer, or this sees the cancellation.
                    let next: Next = state.withLockedValue { state in
                        if let report = state.unread.removeOldest() { return .report(report) }
                        if state.finished || Task.isCancelled { return .end }
                        state.consumer = continuation
                        return .wait
                    }
                    switch next {
                    case .report(let report): continuation.resume(returning: report)
                    case .end: continuation.resume(returning: nil)
                    case .wait: break
                    }
                }
            } onCancel: {
                finish()
            }
        }
    }
#endif

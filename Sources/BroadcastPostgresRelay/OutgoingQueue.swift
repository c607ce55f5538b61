#if PostgresRelay
    import NIOConcurrencyHelpers

    /// An event waiting to be sent.
    struct OutgoingNotification: Sendable {
        let channel: String
        let payload: String
        let typeName: String
        /// Whether the payload is a sticky state, kept in the sticky table in
        /// the statement that sends it.
        let keepsState: Bool
    }

    /// The events posted on this instance, in posting order, from the handlers
    /// that encode them to the one task that sends them.
    ///
    /// Bounded, so that an instance that cannot reach its database for a long
    /// time refuses events (and reports each) instead of growing without limit.
    /// One consumer.
    final class OutgoingQueue: Sendable {
        enum Enqueued {
            case enqueued
            case full(capacity: Int)
            case closed
        }

        enum Next {
            /// The oldest waiting events, in order.
            case batch([OutgoingNotification])
            /// Closed, and every event was taken.
            case finished
            /// The waiting task was cancelled.
            case cancelled
        }

        private struct State {
            var waiting: [OutgoingNotification] = []
            var consumer: CheckedContinuation<Void, Never>?
            var closed = false
        }

        let capacity: Int
        private let state = NIOLockedValueBox(State())

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Adds `notification` after the others, unless the queue is full or
        /// closed.
        func enqueue(_ notification: OutgoingNotification) -> Enqueued {
            let (result, consumer): (Enqueued, CheckedContinuation<Void, Never>?) = state.withLockedValue { state in
                if state.closed { return (.closed, nil) }
                if state.waiting.count >= capacity { return (.full(capacity: capacity), nil) }
                state.waiting.append(notification)
                defer { state.consumer = nil }
                return (.enqueued, state.consumer)
            }
            consumer?.resume()
            return result
        }

        /// Puts `notifications`, taken earlier and not sent, back before the
        /// others, in their order, even if the queue is full or closed: they
        /// were accepted, and are sent on the next connection or reported when
        /// the relay stops.
        func putBack(_ notifications: ArraySlice<OutgoingNotification>) {
            guard !notifications.isEmpty else { return }
            let consumer = state.withLockedValue { state in
                state.waiting.insert(contentsOf: notifications, at: 0)
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        /// Refuses every event from now on; those waiting are still taken.
        func close() {
            let consumer = state.withLockedValue { state in
                state.closed = true
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume()
        }

        /// Takes every waiting event and closes the queue: the events that will
        /// not be sent.
        func closeAndTakeAll() -> [OutgoingNotification] {
            let (taken, consumer) = state.withLockedValue { state in
                state.closed = true
                defer {
                    state.waiting = []
                    state.consumer = nil
                }
                return (state.waiting, state.consumer)
            }
            consumer?.resume()
            return taken
        }

        /// Waits for events and takes up to `limit` of the oldest.
        func next(limit: Int) async -> Next {
            while true {
                if Task.isCancelled { return .cancelled }
                if let next = take(limit: limit) { return next }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        // Checked under the lock that `onCancel` takes: either the
                        // handler finds the continuation, or this sees the
                        // cancellation.
                        let resumeNow = state.withLockedValue { state in
                            guard state.waiting.isEmpty, !state.closed, !Task.isCancelled else { return true }
                            state.consumer = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    let consumer = state.withLockedValue { state in
                        defer { state.consumer = nil }
                        return state.consumer
                    }
                    consumer?.resume()
                }
            }
        }

        private func take(limit: Int) -> Next? {
            state.withLockedValue { state in
                if state.waiting.isEmpty { return state.closed ? .finished : nil }
                let count = min(limit, state.waiting.count)
                defer { state.waiting.removeFirst(count) }
                return .batch(Array(state.waiting.prefix(count)))
            }
        }
    }
#endif

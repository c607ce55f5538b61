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
        /// The envelope's number on its channel: 1 for the first this relay
        /// sends on it, then one more for each (see ``EventLog``).
        let number: UInt64
        /// The failure that interrupted a statement carrying it, if one did:
        /// it may have been delivered, and is sent again (the table keeps it
        /// once, and receivers skip a number they have), or, if the relay
        /// stops first, reported as maybe lost, not as not sent.
        var interruption: (any Error)?
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
            /// The payload is over the limit; it took no number.
            case tooLarge(byteCount: Int)
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
            /// The number of the latest envelope enqueued on each channel.
            var latestNumbers: [String: UInt64] = [:]
            var consumer: CheckedContinuation<Void, Never>?
            var closed = false
        }

        let capacity: Int
        private let state = NIOLockedValueBox(State())

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Numbers an envelope for `channel`, writes it with `payload`, and
        /// adds it after the others, unless the queue is full or closed or the
        /// payload is over `limit` UTF-8 bytes.
        ///
        /// Numbered and added in one step, under the queue's lock, so that the
        /// numbers of a channel are sent in their order, with none skipped,
        /// whichever threads post: a receiver takes a number it did not get
        /// for an event it missed. `payload` only lays out text the relay has
        /// already encoded; none of the app's code runs under the lock.
        func enqueue(
            channel: String, typeName: String, keepsState: Bool, limit: Int, payload: (UInt64) -> String
        ) -> Enqueued {
            let (result, consumer): (Enqueued, CheckedContinuation<Void, Never>?) = state.withLockedValue { state in
                if state.closed { return (.closed, nil) }
                if state.waiting.count >= capacity { return (.full(capacity: capacity), nil) }
                let number = state.latestNumbers[channel, default: 0] + 1
                let text = payload(number)
                let byteCount = text.utf8.count
                guard byteCount <= limit else { return (.tooLarge(byteCount: byteCount), nil) }
                state.latestNumbers[channel] = number
                state.waiting.append(
                    OutgoingNotification(
                        channel: channel, payload: text, typeName: typeName, keepsState: keepsState, number: number))
                defer { state.consumer = nil }
                return (.enqueued, state.consumer)
            }
            consumer?.resume()
            return result
        }

        /// The number of the latest envelope enqueued on each channel.
        var latestNumbers: [String: UInt64] {
            state.withLockedValue { $0.latestNumbers }
        }

        /// Puts `notifications`, taken earlier and not sent, back before the
        /// others (after the first `skipped`, put back just before), in their
        /// order, even if the queue is full or closed: they were accepted, and
        /// are sent on the next connection or reported when the relay stops.
        func putBack(_ notifications: ArraySlice<OutgoingNotification>, after skipped: Int = 0) {
            guard !notifications.isEmpty else { return }
            let consumer = state.withLockedValue { state in
                state.waiting.insert(contentsOf: notifications, at: min(skipped, state.waiting.count))
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

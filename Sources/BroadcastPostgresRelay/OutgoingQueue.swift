#if PostgresRelay
    import NIOConcurrencyHelpers

    /// An event waiting to be sent.
    struct OutgoingNotification: Sendable {
        let channel: String
        /// The envelope.
        let payload: String
        /// The small envelope sent as the notification of an envelope over
        /// the notification limit; nil when the envelope is its own.
        ///
        /// It names the envelope (`"stored":true`), which is written to
        /// ``EventLog`` by the statement that sends it.
        let reference: String?
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

        /// Events of other channels that take more than this many UTF-8 bytes
        /// together are not taken into one batch: a statement carries at most
        /// this much, or one larger event.
        static let batchByteLimit = 1 << 20

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
            /// Events notified whose rows are not written yet, in order: the
            /// next statement writes them (``EventLog``), before or with any
            /// later notification, on this connection or the next.
            var unwritten: [OutgoingNotification] = []
            /// The number of the latest envelope notified on each channel
            /// whose rows are kept in ``EventLog``.
            var notifiedNumbers: [String: UInt64] = [:]
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
        /// adds it after the others.
        ///
        /// Unless the queue is full or closed or the payload is over `limit`
        /// UTF-8 bytes. A payload over
        /// `notificationLimit` bytes travels in the table, its notification
        /// written by `reference` (nil: none can, and `limit` is the
        /// notification limit).
        ///
        /// Numbered and added in one step, under the queue's lock, so that the
        /// numbers of a channel are sent in their order, with none skipped,
        /// whichever threads post: a receiver takes a number it did not get
        /// for an event it missed. `payload` only lays out text the relay has
        /// already encoded; none of the app's code runs under the lock.
        func enqueue(
            channel: String, typeName: String, keepsState: Bool, limit: Int, notificationLimit: Int,
            payload: (UInt64) -> String, reference: ((UInt64) -> String)?
        ) -> Enqueued {
            let (result, consumer): (Enqueued, CheckedContinuation<Void, Never>?) = state.withLockedValue { state in
                if state.closed { return (.closed, nil) }
                if state.waiting.count >= capacity { return (.full(capacity: capacity), nil) }
                let number = state.latestNumbers[channel, default: 0] + 1
                let text = payload(number)
                let byteCount = text.utf8.count
                guard byteCount <= limit else { return (.tooLarge(byteCount: byteCount), nil) }
                let referenceText: String?
                if byteCount > notificationLimit {
                    guard let reference else { return (.tooLarge(byteCount: byteCount), nil) }
                    referenceText = reference(number)
                } else {
                    referenceText = nil
                }
                state.latestNumbers[channel] = number
                state.waiting.append(
                    OutgoingNotification(
                        channel: channel, payload: text, reference: referenceText, typeName: typeName,
                        keepsState: keepsState, number: number))
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

        /// The number of the latest envelope on each channel whose row is
        /// written, for the heartbeat: a receiver that has not taken a number
        /// up to it reads the rows, and reports lost those it cannot read.
        var writtenNumbers: [String: UInt64] {
            state.withLockedValue { state in
                var written: [String: UInt64] = [:]
                for (channel, notified) in state.notifiedNumbers {
                    // Rows are written in order: every one before the first
                    // not written yet is.
                    let number = state.unwritten.first { $0.channel == channel }.map { $0.number - 1 } ?? notified
                    if number > 0 { written[channel] = number }
                }
                return written
            }
        }

        /// The events notified whose rows are not written yet, oldest first.
        var unwrittenRows: [OutgoingNotification] {
            state.withLockedValue { $0.unwritten }
        }

        /// Whether events wait to be taken.
        var hasWaiting: Bool {
            state.withLockedValue { !$0.waiting.isEmpty }
        }

        /// Records that a statement committed: it wrote the first
        /// `writtenCount` rows of ``unwrittenRows`` and notified `notified`,
        /// whose rows are written by a later statement, but for those it
        /// wrote itself (``OutgoingNotification/reference``) and the sticky
        /// states, kept in their own table.
        func committed(writing writtenCount: Int, notifying notified: [OutgoingNotification]) {
            state.withLockedValue { state in
                state.unwritten.removeFirst(min(writtenCount, state.unwritten.count))
                for notification in notified where !notification.keepsState {
                    if notification.reference == nil { state.unwritten.append(notification) }
                    state.notifiedNumbers[notification.channel] = max(
                        state.notifiedNumbers[notification.channel] ?? 0, notification.number)
                }
            }
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

        /// Waits for events and takes up to `limit` of the oldest, as many as
        /// ``batchByteLimit`` allows (at least one).
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
                var count = 0
                var byteCount = 0
                for notification in state.waiting.prefix(limit) {
                    byteCount += notification.payload.utf8.count
                    if count > 0, byteCount > Self.batchByteLimit { break }
                    count += 1
                }
                defer { state.waiting.removeFirst(count) }
                return .batch(Array(state.waiting.prefix(count)))
            }
        }
    }
#endif

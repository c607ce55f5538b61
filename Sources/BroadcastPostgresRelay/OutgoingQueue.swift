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
        /// ``EventLog`` by the statement that sends it, with the rows of
        /// every envelope notified before it.
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
            /// Woken (``wake()``) with no event waiting: the rows not written
            /// yet may be due.
            case woken
            /// The waiting task was cancelled.
            case cancelled
        }

        private struct State {
            var waiting: [OutgoingNotification] = []
            /// Events notified whose rows are not written yet, in order: a
            /// later statement writes them (``EventLog``), on this connection
            /// or, first of all, on the next.
            var unwritten: [OutgoingNotification] = []
            /// When the oldest of ``unwritten`` was notified; nil if none is.
            var unwrittenSince: ContinuousClock.Instant?
            /// When the latest statement that notified a row not written yet
            /// committed.
            var latestNotifiedAt: ContinuousClock.Instant?
            /// Set by ``OutgoingQueue/wake()``, cleared when ``next(limit:)``
            /// returns ``Next/woken``.
            var isWoken = false
            /// The number of the latest envelope notified on each channel
            /// whose rows are kept in ``EventLog``.
            var notifiedNumbers: [String: UInt64] = [:]
            /// The number of the latest envelope enqueued on each channel.
            var latestNumbers: [String: UInt64] = [:]
            var consumer: CheckedContinuation<Void, Never>?
            var closed = false

            /// The waiting consumer, no longer waiting: resumed by the
            /// caller once the lock is released.
            mutating func takeConsumer() -> CheckedContinuation<Void, Never>? {
                defer { consumer = nil }
                return consumer
            }
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
                return (.enqueued, state.takeConsumer())
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

        /// Whether the rows not written yet are due: the oldest has waited
        /// `delay`, or `count` of them wait.
        func rowsAreDue(after delay: Duration, count: Int) -> Bool {
            state.withLockedValue { state in
                guard let since = state.unwrittenSince else { return false }
                return state.unwritten.count >= count || ContinuousClock.now - since >= delay
            }
        }

        /// When the rows not written yet are to be written if nothing is
        /// notified meanwhile: `delay` after the latest notification; nil if
        /// no row waits.
        func quietDeadline(after delay: Duration) -> ContinuousClock.Instant? {
            state.withLockedValue { state in
                state.unwritten.isEmpty ? nil : state.latestNotifiedAt.map { $0 + delay }
            }
        }

        /// Whether events wait to be taken.
        var hasWaiting: Bool {
            state.withLockedValue { !$0.waiting.isEmpty }
        }

        /// Records that a statement committed: it wrote the first
        /// `writtenCount` rows of ``unwrittenRows`` and notified `notified`,
        /// whose rows are written by a later statement, but for the sticky
        /// states, kept in their own table, and for a batch that notifies an
        /// envelope by reference (``OutgoingNotification/reference``): its
        /// statement wrote the rows of the whole batch, so that rows are
        /// written in their numbers' order.
        func committed(writing writtenCount: Int, notifying notified: [OutgoingNotification]) {
            let writesItsRows = notified.contains { $0.reference != nil }
            let now = ContinuousClock.now
            state.withLockedValue { state in
                state.unwritten.removeFirst(min(writtenCount, state.unwritten.count))
                if state.unwritten.isEmpty { state.unwrittenSince = nil }
                for notification in notified where !notification.keepsState {
                    if !writesItsRows {
                        state.unwritten.append(notification)
                        if state.unwrittenSince == nil { state.unwrittenSince = now }
                        state.latestNotifiedAt = now
                    }
                    state.notifiedNumbers[notification.channel] = max(
                        state.notifiedNumbers[notification.channel] ?? 0, notification.number)
                }
            }
        }

        /// Makes the consumer's ``next(limit:)`` return, ``Next/woken`` if no
        /// event waits: the rows not written yet are due.
        func wake() {
            let consumer = state.withLockedValue { state in
                state.isWoken = true
                return state.takeConsumer()
            }
            consumer?.resume()
        }

        /// Puts `notifications`, taken earlier and not sent, back before the
        /// others (after the first `skipped`, put back just before), in their
        /// order, even if the queue is full or closed: they were accepted, and
        /// are sent on the next connection or reported when the relay stops.
        func putBack(_ notifications: ArraySlice<OutgoingNotification>, after skipped: Int = 0) {
            guard !notifications.isEmpty else { return }
            let consumer = state.withLockedValue { state in
                state.waiting.insert(contentsOf: notifications, at: min(skipped, state.waiting.count))
                return state.takeConsumer()
            }
            consumer?.resume()
        }

        /// Refuses every event from now on; those waiting are still taken.
        func close() {
            let consumer = state.withLockedValue { state in
                state.closed = true
                return state.takeConsumer()
            }
            consumer?.resume()
        }

        /// Takes every waiting event and closes the queue: the events that will
        /// not be sent.
        func closeAndTakeAll() -> [OutgoingNotification] {
            let (taken, consumer) = state.withLockedValue { state in
                state.closed = true
                defer { state.waiting = [] }
                return (state.waiting, state.takeConsumer())
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
                            guard state.waiting.isEmpty, !state.closed, !state.isWoken, !Task.isCancelled else {
                                return true
                            }
                            state.consumer = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    let consumer = state.withLockedValue { $0.takeConsumer() }
                    consumer?.resume()
                }
            }
        }

        private func take(limit: Int) -> Next? {
            state.withLockedValue { state in
                if state.waiting.isEmpty {
                    if state.closed { return .finished }
                    guard state.isWoken else { return nil }
                    state.isWoken = false
                    return .woken
                }
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

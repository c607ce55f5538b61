#if PostgresRelay
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// One connection's work: listen on every relayed channel and post what
    /// arrives, send the events posted here, and check the connection.
    struct RelaySession {
        let connection: PostgresConnection
        let routes: [any RelayRoute]
        let outgoing: OutgoingQueue
        let reporter: RelayReporter
        let logger: Logger
        let configuration: PostgresRelay.Configuration
        /// This instance's identifier: the sender of the rows it keeps in
        /// ``EventLog``, and of its heartbeats.
        let instanceID: String
        /// Where the heartbeats heard are recorded.
        let liveInstances: LiveInstances
        /// The number up to which each sender's heartbeat last said its rows
        /// on each channel are written, by sender, then channel: a number
        /// missing below it never will be.
        private let writtenNumbers = NIOLockedValueBox([String: [String: UInt64]]())
        /// This instance's mark on each channel (``NotifiedMarks``): the
        /// name of its sequence, set once it is created.
        private let markSequences = NIOLockedValueBox([String: String]())

        /// The most events sent in one statement (one round trip, one
        /// transaction), and the most rows that wait to be written.
        static let batchLimit = 100

        /// How long the row of an envelope notified waits to be written
        /// while events flow (``EventLog``): long enough that the rows of
        /// several are written by one statement, which seldom holds a
        /// `NOTIFY` back or takes a core from a delivery (measured: at an
        /// event every millisecond, 2 ms put a write beside every other
        /// event's delivery, and the median latency went from 1.15× to 1.6×
        /// the floor's); short enough that a receiver that missed an
        /// envelope seldom waits for its row, and that little is lost if the
        /// process ends.
        static let rowDelay: Duration = .milliseconds(5)

        /// How long after the latest notification the rows are written if
        /// no event comes: shorter than ``rowDelay``, so that events a few
        /// milliseconds apart have their rows written between them.
        static let quietDelay: Duration = .microseconds(1500)

        /// How long a receiver reads the table for the earlier rows of a
        /// sender first heard from live, above number 1, while it finds none:
        /// a sender writes its rows within ``rowDelay`` of their
        /// notifications (those a failed connection left, before its next
        /// notification), so none by then means the numbers before were
        /// sent before this relay first listened, or are pruned, and the
        /// channel is not held back for them.
        static let firstRowsWait: Duration = rowDelay * 4

        /// The longest pause between two reads of the rows a sender's mark
        /// counts (``NotifiedMarks``): after a server restart, a receiver
        /// that listens again before the sender waits for the rows it writes
        /// on reconnecting, and its own next event waits behind them.
        ///
        /// With pauses of up to 100 ms, as for the rows of a number a later
        /// notification revealed missed, that event could wait up to 100 ms
        /// more; 10 ms bounds it. (Not visible in what was measured: after a
        /// fast restart, the first event came 185–357 ms after the restart
        /// began whether a mark counted anything or not, with either pause,
        /// in 36 restarts; the instances' reconnect delays, drawn at random,
        /// decide it.) The price: a receiver that waits the whole
        /// `healthCheckInterval` and `maximumReconnectDelay` for a killed
        /// sender reads the table 100 times a second meanwhile, each read a
        /// lookup by the table's key.
        static let markedRowsPause: Duration = .milliseconds(10)

        /// A listen that ended without an error: the connection is no longer
        /// listening, so the session ends as if it had failed.
        struct ListenEnded: Error {}

        /// The server did not answer a health check in time.
        struct HealthCheckTimedOut: Error {}

        /// Listens, calls `onListening` once every channel is listened on, then
        /// relays; returns once the outgoing queue is closed and empty (a
        /// graceful shutdown) or the task is cancelled, and throws when the
        /// connection fails.
        nonisolated(nonsending) func run(onListening: () -> Void) async throws {
            let setup = SetupWatch(connection, interval: configuration.healthCheckInterval, logger: logger)
            defer { setup.stop() }
            let stickyRoutes = routes.filter(\.sticky)
            if !stickyRoutes.isEmpty {
                try await connection.runToEnd(StickyStateTable.create, logger: logger)
                setup.answered()
            }
            try await connection.runToEnd(EventLog.create, logger: logger)
            setup.answered()
            try await connection.runToEnd(TransactionalNumbers.create, logger: logger)
            setup.answered()
            try await connection.runToEnd(EventLog.fastCommits, logger: logger)
            setup.answered()
            try await connection.runToEnd(NotifiedMarks.create, logger: logger)
            setup.answered()
            // After `fastCommits`: its commit need not wait for the disk.
            try await registerMarks()
            setup.answered()
            let statements = try await PreparedStatements(preparedOn: connection)
            setup.answered()
            try await connection.listen(on: LiveInstances.channel) { heartbeats in
                setup.answered()
                try await relay(
                    heartbeats: heartbeats, stickyRoutes: stickyRoutes, statements: statements, setup: setup
                ) {
                    onListening()
                }
            }
        }

        /// Listens on every route's channel, then relays, beside the
        /// heartbeats of the instances (``LiveInstances``).
        nonisolated(nonsending) private func relay(
            heartbeats: PostgresNotificationSequence, stickyRoutes: [any RelayRoute], statements: PreparedStatements,
            setup: SetupWatch, onListening: () -> Void
        ) async throws {
            try await listen(to: routes[...], listening: [], setup: setup) { listening in
                // Read once listening, at start and after each gap: a state
                // committed after the read arrives as a notification.
                try await restoreStates(of: stickyRoutes)
                setup.answered()
                // Likewise the events sent while this relay was not listening;
                // those that also arrive as notifications, held until now, are
                // skipped by their numbers.
                let unwritten = try await recoverEvents(of: routes.filter { !$0.sticky }, setup: setup)
                setup.stop()
                liveInstances.heard(instanceID)
                onListening()
                let turns = listening.map { _ in ReceivingTurn() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for ((route, notifications), turn) in zip(listening, turns) {
                        // Taken before the notifications are: those that
                        // arrive meanwhile wait, in order, for the rows.
                        let unwritten = unwritten[route.channel].flatMap { turn.take(orLeave: nil) ? $0 : nil }
                        group.addTask {
                            try await withThrowingTaskGroup(of: Void.self) { listeningGroup in
                                if let unwritten {
                                    listeningGroup.addTask {
                                        // One wait for all the senders,
                                        // from the moment the relay listened.
                                        let listened = ContinuousClock.now
                                        for missed in unwritten {
                                            try await recoverMarked(missed, on: route, turn: turn, since: listened)
                                        }
                                        try await receive([], on: route, holding: turn)
                                    }
                                }
                                listeningGroup.addTask {
                                    for try await notification in notifications
                                    where turn.take(orLeave: notification.payload) {
                                        try await receive([notification.payload], on: route, holding: turn)
                                    }
                                    if !Task.isCancelled { throw ListenEnded() }
                                }
                                while try await listeningGroup.next() != nil {}
                            }
                        }
                    }
                    group.addTask {
                        for try await notification in heartbeats {
                            let heartbeat = Heartbeat(reading: notification.payload)
                            liveInstances.heard(heartbeat.instanceID)
                            writtenNumbers.withLockedValue { $0[heartbeat.instanceID] = heartbeat.writtenNumbers }
                            guard heartbeat.instanceID != instanceID else { continue }
                            for ((route, _), turn) in zip(listening, turns) {
                                try await readRowsMissed(before: heartbeat, on: route, turn: turn)
                            }
                        }
                        if !Task.isCancelled { throw ListenEnded() }
                    }
                    group.addTask { try await sendWaitingEvents(statements) }
                    group.addTask { try await checkHealth() }
                    group.addTask { try await pruneEventLog() }
                    // The first to end, by returning or throwing, ends the rest.
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
        }

        /// Listens on the first route's channel, then on the others', and runs
        /// `body` with all of them listened on; each is unlistened when `body`
        /// returns.
        nonisolated(nonsending) private func listen(
            to routes: ArraySlice<any RelayRoute>,
            listening: [(any RelayRoute, PostgresNotificationSequence)], setup: SetupWatch,
            body: ([(any RelayRoute, PostgresNotificationSequence)]) async throws -> Void
        ) async throws {
            guard let route = routes.first else {
                try await body(listening)
                return
            }
            try await connection.listen(on: route.channel) { notifications in
                setup.answered()
                try await listen(
                    to: routes.dropFirst(), listening: listening + [(route, notifications)], setup: setup, body: body)
            }
        }

        /// Posts, or clears, the sticky states the table keeps for `routes`.
        private func restoreStates(of routes: [any RelayRoute]) async throws {
            guard !routes.isEmpty else { return }
            let rows = try await connection.rowsToEnd(StickyStateTable.read(routes.map(\.channel)), logger: logger)
            for row in rows {
                let (channel, envelope) = try row.decode((String, String).self)
                await routes.first { $0.channel == channel }?.restore(envelope)
            }
        }

        /// Creates, if absent, this relay's marks of the channels of its
        /// routes of events (``NotifiedMarks``), listed in their table.
        private func registerMarks() async throws {
            let channels = Set(routes.filter { !$0.sticky }.map(\.channel)).sorted()
            guard !channels.isEmpty else { return }
            try await connection.runToEnd("BEGIN", logger: logger)
            try await connection.runToEnd(NotifiedMarks.lock, logger: logger)
            var sequences: [String: String] = [:]
            for row in try await connection.rowsToEnd(
                NotifiedMarks.register(sender: instanceID, channels: channels), logger: logger)
            {
                let (channel, sequence) = try row.decode((String, String).self)
                try await connection.runToEnd(try NotifiedMarks.createSequence(named: sequence), logger: logger)
                sequences[channel] = sequence
            }
            try await connection.runToEnd("COMMIT", logger: logger)
            markSequences.withLockedValue { $0 = sequences }
        }

        /// Posts, for each of `routes`, the events sent on its channel since
        /// the latest number it took from each sender; or, at the relay's
        /// first listen, starts its account where the table ends.
        ///
        /// Returns, by channel, the numbers that senders notified (their
        /// marks, ``NotifiedMarks``) beyond the rows read and the account:
        /// their rows may not be written yet, and are waited for once the
        /// relay listens.
        private func recoverEvents(of routes: [any RelayRoute], setup: SetupWatch) async throws
            -> [String: [MissedEnvelopes]]
        {
            var unwritten: [String: [MissedEnvelopes]] = [:]
            for route in routes {
                defer { setup.answered() }
                // Read before the rows: a sender's rows read after its mark
                // reach it, unless they are not written yet.
                var marks: [String: UInt64] = [:]
                for row in try await connection.rowsToEnd(
                    NotifiedMarks.marks(on: route.channel, receiver: instanceID), logger: logger)
                {
                    let (sender, notified) = try row.decode((String, Int64).self)
                    marks[sender] = UInt64(notified)
                }
                setup.answered()
                guard let latest = route.receivedNumbers else {
                    let rows = try await connection.rowsToEnd(EventLog.latestNumbers(on: route.channel), logger: logger)
                    var start: [String: UInt64] = [:]
                    for row in rows {
                        let (sender, number) = try row.decode((String, Int64).self)
                        start[sender] = UInt64(number)
                    }
                    route.startAccount(at: start, marked: marks)
                    continue
                }
                let rows = try await connection.rowsToEnd(
                    EventLog.rows(on: route.channel, after: latest, receiver: instanceID), logger: logger)
                try setup.whileWorking {
                    route.recover(try rows.map(Self.loggedEnvelope), missed: nil)
                }
                let missed = route.unwritten(marked: marks)
                if !missed.isEmpty { unwritten[route.channel] = missed }
            }
            return unwritten
        }

        /// Receives `payloads` on `route`, in order, reading from the table
        /// the envelopes each reveals missed or names there; then those left
        /// meanwhile; then ends `turn`, which the caller holds.
        private func receive(_ payloads: [String], on route: any RelayRoute, holding turn: ReceivingTurn)
            async throws
        {
            var payloads = payloads
            repeat {
                for payload in payloads {
                    if let missed = route.receive(payload) {
                        try await recover(missed, on: route)
                    }
                }
                payloads = turn.end()
            } while !payloads.isEmpty
        }

        /// Reads from the table the envelopes of `heartbeat`'s sender that
        /// `route` has not taken, up to the number its rows are written to.
        ///
        /// Posts those it finds, and reports the others lost. Skipped while
        /// the route's listening task has the turn: the next heartbeat asks
        /// again.
        private func readRowsMissed(before heartbeat: Heartbeat, on route: any RelayRoute, turn: ReceivingTurn)
            async throws
        {
            guard let written = heartbeat.writtenNumbers[route.channel],
                route.unread(upTo: written, from: heartbeat.instanceID) != nil, turn.take(orLeave: nil)
            else { return }
            if let missed = route.unread(upTo: written, from: heartbeat.instanceID) {
                try await recover(missed, on: route)
            }
            try await receive([], on: route, holding: turn)
        }

        /// Reads the envelopes `missed` names from the table, and hands them
        /// to `route` with the one that revealed them.
        ///
        /// A sender writes its rows in order, a moment after their
        /// notifications (``rowDelay``; on its next connection first of all
        /// if its connection failed meanwhile). So if numbers revealed
        /// missed by a later notification are not all written yet, they are
        /// waited for (``readRows(of:on:waitingUntil:pausingAtMost:)``) for
        /// at most `healthCheckInterval`: that sender was connected, and
        /// writes them within ``rowDelay``; the numbers still missing then
        /// are lost (a sender that ended before writing them). Rows named by
        /// a notification, or by a heartbeat, are written already, and read
        /// once.
        private func recover(_ missed: MissedEnvelopes, on route: any RelayRoute) async throws {
            let deadline = ContinuousClock.now + configuration.healthCheckInterval
            let rows = try await readRows(
                of: missed, on: route, waitingUntil: missed.payload == nil ? nil : { deadline },
                pausingAtMost: .milliseconds(100))
            route.recover(rows, missed: missed)
        }

        /// Reads the envelopes of numbers `missed`'s sender's mark counts
        /// (``NotifiedMarks``) from the table, waiting for their rows, and
        /// hands them to `route`, reporting lost those still missing but for
        /// those the notifications left to `turn` meanwhile carry (notified
        /// after this relay listened, they are received).
        ///
        /// They were notified while this relay did not listen, maybe by a
        /// sender whose connection failed with their rows unwritten, as every
        /// connection does when the server restarts: it writes them first
        /// when it reconnects, within `maximumReconnectDelay` of the server's
        /// return. So the wait lasts `healthCheckInterval` and
        /// `maximumReconnectDelay`, counted from `listened` or from the
        /// sender's latest heartbeat, whichever is later: a sender silent
        /// that long has ended, and a live one's heartbeats keep the wait
        /// going until they say its rows are written.
        private func recoverMarked(
            _ missed: MissedEnvelopes, on route: any RelayRoute, turn: ReceivingTurn,
            since listened: ContinuousClock.Instant
        ) async throws {
            let rows = try await readRows(
                of: missed, on: route,
                waitingUntil: {
                    let heard = max(listened, liveInstances.lastHeard(missed.sender) ?? listened)
                    return heard + configuration.healthCheckInterval + configuration.maximumReconnectDelay
                },
                pausingAtMost: Self.markedRowsPause)
            route.recover(rows, missed: missed.notReceived(in: turn.left))
        }

        /// The rows of `missed` the table keeps; with a `deadline`, read
        /// again, 1.5, 3, 6… ms later (at most `longestPause` apart), while
        /// the last is not written, until the sender's heartbeat says its
        /// rows are written past them (a number still missing then never
        /// will be: an event the server refused took it), or until
        /// `deadline()`, which a heartbeat may move.
        ///
        /// A sender first heard of (``MissedEnvelopes/isFirstHeard``) with no
        /// row after ``firstRowsWait`` has none to wait for.
        private func readRows(
            of missed: MissedEnvelopes, on route: any RelayRoute,
            waitingUntil deadline: (() -> ContinuousClock.Instant)?, pausingAtMost longestPause: Duration
        ) async throws -> [LoggedEnvelope] {
            let firstRowsDeadline = ContinuousClock.now + Self.firstRowsWait
            var pause = Self.quietDelay
            while true {
                // Read before the table: the rows a heartbeat counts were
                // committed before it was sent.
                let written = writtenNumbers.withLockedValue { $0[missed.sender]?[route.channel] } ?? 0
                let rows = try await connection.rowsToEnd(
                    EventLog.rows(on: route.channel, from: missed.sender, numbered: missed.numbers), logger: logger
                ).map(Self.loggedEnvelope)
                guard let deadline, rows.last?.number != missed.numbers.upperBound,
                    written < missed.numbers.upperBound, ContinuousClock.now + pause <= deadline(),
                    !(missed.isFirstHeard && rows.isEmpty && ContinuousClock.now >= firstRowsDeadline)
                else { return rows }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, longestPause)
            }
        }

        private static func loggedEnvelope(_ row: PostgresRow) throws -> LoggedEnvelope {
            let (sender, number, payload) = try row.decode((String, Int64, String).self)
            return LoggedEnvelope(sender: sender, number: UInt64(number), payload: payload)
        }

        /// Deletes this relay's rows beyond the recovery window, and the rows
        /// and marks of stopped instances (keeping this relay's marks), a
        /// quarter of the window apart (at least every 5 s, at most every
        /// 100 ms).
        private func pruneEventLog() async throws {
            let period = max(.milliseconds(100), min(.seconds(5), configuration.recoveryWindow / 4))
            while true {
                try await Task.sleep(for: period)
                let latest = outgoing.latestNumbers
                try await connection.runToEnd(
                    EventLog.prune(
                        sender: instanceID, latest: latest, window: configuration.recoveryWindow,
                        keptCount: configuration.recoveryWindowEvents),
                    logger: logger)
                try await connection.runToEnd(NotifiedMarks.keep(sender: instanceID), logger: logger)
                try await connection.runToEnd(NotifiedMarks.prune(window: configuration.recoveryWindow), logger: logger)
                try await connection.runToEnd(
                    TransactionalNumbers.prune(
                        sender: TransactionalNumbers.sender(instanceID), window: configuration.recoveryWindow,
                        keptCount: configuration.recoveryWindowEvents),
                    logger: logger)
            }
        }

        /// Sends the waiting events in batches, in order, and writes their
        /// rows, until the queue is closed and empty or the task is cancelled.
        ///
        /// The rows an earlier connection left unwritten are written first of
        /// all. Then rows wait until they are due (the oldest waited
        /// ``rowDelay``, or a batch's worth waits), and are written with the
        /// next batch's notifications if one waits, else by a statement of
        /// their own right after the notifications that made them due, when
        /// the next event is furthest away; and, when no event comes,
        /// ``quietDelay`` after the latest notification. All of them when the
        /// queue is closed. A cancelled task leaves the rows not written yet
        /// unwritten.
        private func sendWaitingEvents(_ statements: PreparedStatements) async throws {
            var statements = statements
            try await writeRows(&statements)
            // Wakes this loop once no event has been notified for
            // `quietDelay`, and not before: a wake while events flow would
            // take a core from a delivery. One at a time, started again once
            // it has woken the loop.
            var timer: Task<Void, Never>?
            defer { timer?.cancel() }
            while true {
                if timer == nil, outgoing.quietDeadline(after: Self.quietDelay) != nil {
                    timer = Task { [outgoing] in
                        while let deadline = outgoing.quietDeadline(after: Self.quietDelay) {
                            guard deadline > .now else { break }
                            do {
                                try await Task.sleep(until: deadline)
                            } catch {
                                return
                            }
                        }
                        outgoing.wake()
                    }
                }
                switch await outgoing.next(limit: Self.batchLimit) {
                case .batch(let batch):
                    try await send(batch, statements)
                    if !outgoing.hasWaiting, outgoing.rowsAreDue(after: Self.rowDelay, count: Self.batchLimit) {
                        try await writeRows(&statements)
                    }
                case .woken:
                    timer = nil
                    // Not while events flow: then rows are written right
                    // after a batch, not wherever the timer falls.
                    if let deadline = outgoing.quietDeadline(after: Self.quietDelay), deadline <= .now {
                        try await writeRows(&statements)
                    }
                case .finished:
                    try await writeRows(&statements)
                    return
                case .cancelled:
                    return
                }
            }
        }

        /// Writes the rows of the envelopes notified and not written yet.
        private func writeRows(_ statements: inout PreparedStatements) async throws {
            let rows = outgoing.unwrittenRows
            guard !rows.isEmpty else { return }
            try await connection.runToEnd(
                try await statements.writing(), values: EventLog.writingValues(of: rows, sender: instanceID))
            outgoing.committed(writing: rows.count, notifying: [])
        }

        /// Sends `batch` in one statement, which also writes the rows not
        /// written yet if they are due, or if it writes a row of its own;
        /// finds, one by one, the events the server refuses;
        /// throws when the connection fails, having reported the events whose
        /// statement it interrupted and put back, first in line for the next
        /// connection, those not tried yet.
        ///
        /// A batch of notifications alone is sent by a statement prepared
        /// for it (``NotificationStatement``).
        private func send(_ batch: [OutgoingNotification], _ statements: PreparedStatements) async throws {
            let writesRows =
                outgoing.rowsAreDue(after: Self.rowDelay, count: Self.batchLimit)
                || batch.contains { $0.reference != nil }
            let rows = writesRows ? outgoing.unwrittenRows : []
            do {
                let marks = markSequences.withLockedValue { $0 }
                if let (statement, values) = NotificationStatement.sending(batch, writing: rows, marks: marks) {
                    do {
                        try await connection.runToEnd(statements.prepared(statement), values: values)
                    } catch let error as PostgresError where ServerRefusal.isRefusal(error) {
                        // Nothing of it was committed: sent again unprepared,
                        // whose refusal is the error the relay reports.
                        try await connection.runToEnd(
                            EventLog.send(batch, writing: rows, sender: instanceID, marks: marks), logger: logger)
                    }
                } else {
                    try await connection.runToEnd(
                        EventLog.send(batch, writing: rows, sender: instanceID, marks: marks), logger: logger)
                }
                outgoing.committed(writing: rows.count, notifying: batch)
                reporter.counters.countSent(batch.count)
            } catch let error as PSQLError where ServerRefusal.isRefusal(error) {
                // Nothing of the statement was committed, and the connection is
                // fine.
                guard batch.count > 1 else {
                    report(.eventNotSent, batch[0], .serverRejected(error))
                    return
                }
                for (index, notification) in batch.enumerated() {
                    do {
                        try await send([notification], statements)
                    } catch {
                        // `send` put `notification` back, first in line; the
                        // rest follow it.
                        outgoing.putBack(batch[(index + 1)...], after: 1)
                        throw error
                    }
                }
            } catch {
                // Committed or not: sent again, first, on the next connection;
                // the table keeps it once, and receivers skip a number they
                // have. The rows not written yet stay so until then.
                outgoing.putBack(
                    batch.map { notification in
                        var interrupted = notification
                        interrupted.interruption = error
                        return interrupted
                    }[...])
                throw error
            }
        }

        /// Asks the server a question (a heartbeat, ``LiveInstances``) a quarter of
        /// `healthCheckInterval` after its last answer, and throws, having closed
        /// the connection (which fails the question, so that this returns), once
        /// `healthCheckInterval` has passed since that answer.
        ///
        /// Counting from the last answer, not from the question, is what bounds
        /// the time to notice a server that stopped answering by the interval:
        /// it stopped after that answer. Asking early leaves a busy server three
        /// quarters of the interval to answer.
        private func checkHealth() async throws {
            var lastAnswer = ContinuousClock.now
            while true {
                try await Task.sleep(until: lastAnswer + configuration.healthCheckInterval / 4)
                let deadline = lastAnswer + configuration.healthCheckInterval
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // Also this instance's heartbeat.
                        let heartbeat = Heartbeat(instanceID: instanceID, writtenNumbers: outgoing.writtenNumbers)
                        try await connection.runToEnd(
                            "SELECT pg_notify(\(LiveInstances.channel), \(heartbeat.payload))", logger: logger)
                    }
                    group.addTask {
                        try await Task.sleep(until: deadline)
                        try? await connection.close()
                        throw HealthCheckTimedOut()
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
                lastAnswer = .now
            }
        }

        private func report(_ kind: RelayReport.Kind, _ notification: OutgoingNotification, _ error: PostgresRelayError)
        {
            reporter.report(
                RelayReport(kind, channel: notification.channel, typeName: notification.typeName, error: error))
        }
    }
#endif

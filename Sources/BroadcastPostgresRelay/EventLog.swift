#if PostgresRelay
    import PostgresNIO

    /// The table where every envelope a relay sends is kept for a while, so
    /// that an instance that was not listening when it was sent (reconnecting
    /// after a restart, a cut connection, a server that stopped answering)
    /// reads it when it listens again.
    ///
    /// A row is written by a later statement than the one that sends its
    /// `NOTIFY` (``send(_:writing:sender:marks:)``), a moment later: rows wait
    /// until the oldest waited ``RelaySession/rowDelay``, a batch's worth
    /// waits, or nothing was notified for ``RelaySession/quietDelay``, and
    /// are then written, together, by a statement of their own
    /// or with the next batch's `NOTIFY`s; rows an earlier connection left
    /// unwritten are written first on the next. So most `NOTIFY` statements
    /// write nothing, and a `NOTIFY` rarely waits behind a row. Rows are
    /// written in their numbers' order: one too large for a notification
    /// is written by the statement that notifies it, with every row not
    /// written before it. A receiver that gets an envelope after numbers it
    /// missed reads them, and waits for the last one's row if it is not
    /// written yet (``RelaySession``). Each sender numbers its envelopes
    /// on each channel 1, 2, 3… (`n`, ``OutgoingQueue``); a receiver knows the
    /// latest number it took from each sender, and on listening again reads
    /// the rows after it. A number it did not get, live or from the table, is
    /// an envelope it lost, and is reported (``RelayReport/Kind/eventsLost``).
    ///
    /// Why a table, and not each sender's memory asked again (a negative
    /// acknowledgement): a row outlives its sender's process, which a killed
    /// process's memory does not, and needs no message back to the sender; the
    /// cost is a multi-row insert every few milliseconds while events flow,
    /// measured in the benchmarks.
    enum EventLog {
        /// Creates the table if it is absent, and its index of when each row
        /// was written, under a transaction-level advisory lock, like
        /// ``StickyStateTable/create``.
        ///
        /// The index is what ``prune(sender:latest:window:keptCount:)`` finds
        /// old rows by. Without it, the deletion of the rows of stopped
        /// instances read the whole table, on the connection that also sends
        /// the `NOTIFY`s, and every event posted meanwhile waited: measured
        /// with 250,000 rows, 105 ms without the index, 0.14 ms with it (load
        /// average 8 from builds). A row's write costs the same with it or
        /// without (`pgbench`, five rows a statement: 0.58–0.62 ms).
        static let create: PostgresQuery = """
            DO $$ BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('broadcast_relay_events'));
            CREATE TABLE IF NOT EXISTS broadcast_relay_events (
                channel text NOT NULL,
                sender text NOT NULL,
                number bigint NOT NULL,
                envelope text NOT NULL,
                sent_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (channel, sender, number)
            );
            -- Created only if absent: creating it locks the table against
            -- writes, which an existing index must not do at every session.
            IF to_regclass('broadcast_relay_events_sent_at') IS NULL THEN
                CREATE INDEX broadcast_relay_events_sent_at ON broadcast_relay_events (sent_at);
            END IF;
            END $$
            """

        /// Lets the relay's commits return before their write-ahead log is
        /// flushed to disk, whatever the server's default.
        ///
        /// Measured with `pgbench` on PostgreSQL 15 (one session, prepared
        /// statements): a `pg_notify` alone took 0.2–0.37 ms; with its row
        /// written in the same statement, 0.31–0.6 ms with asynchronous
        /// commits, and 5.6–7.3 ms with synchronous ones (a flush to disk per
        /// statement), which would make every event wait for the disk. The
        /// price: after a crash of the server (not a restart or a cut
        /// connection, which let commits finish), the rows committed in the
        /// last moments before it (up to three times `wal_writer_delay`, whose
        /// default is 200 ms) may be missing; a receiver that had not received
        /// them reports them lost.
        static let fastCommits: PostgresQuery = "SET synchronous_commit TO off"

        /// Sends `batch` in one statement, in order.
        ///
        /// It also writes the rows of `rows` (envelopes notified by earlier
        /// statements, ``OutgoingQueue``), and, if `batch` has an envelope
        /// too large to be its own notification, which it notifies by
        /// reference, the rows of every envelope of `batch`; keeps the sticky
        /// states of `batch` in ``StickyStateTable``; advances `sender`'s
        /// marks, the sequences `sequences` names by channel
        /// (``NotifiedMarks``), to the latest numbers of `batch`. All
        /// numbered as `sender`'s.
        ///
        /// The rows of a batch with no envelope by reference are not written
        /// here: a notification reaches the listeners when its statement
        /// commits, and a statement that also writes rows commits later.
        /// They are written a moment later (see ``EventLog``).
        ///
        /// A row already kept (its statement was interrupted after it
        /// committed, and it is written again) is not written twice; a
        /// notification sent again is skipped by receivers, which have its
        /// number.
        static func send(
            _ batch: [OutgoingNotification], writing rows: [OutgoingNotification], sender: String,
            marks sequences: [String: String]
        ) -> PostgresQuery {
            if let (statement, values) = NotificationStatement.sending(batch, writing: rows, marks: sequences) {
                return PostgresQuery(prepared: statement.text, values: values)
            }
            let stored = batch.contains { $0.reference != nil } ? rows + batch.filter { !$0.keepsState } : rows
            let keepsState = batch.contains(where: \.keepsState)
            // Advanced by the statement that notifies (``NotifiedMarks``), in
            // the row of the latest number's `pg_notify` on each channel.
            let marks = NotifiedMarks.marks(of: batch, in: sequences)
            let kept =
                keepsState
                ? """
                , kept AS (
                    INSERT INTO broadcast_relay_sticky (channel, envelope)
                    SELECT DISTINCT ON (channel) channel, payload FROM n WHERE keeps_state ORDER BY channel, position DESC
                    ON CONFLICT (channel) DO UPDATE SET envelope = EXCLUDED.envelope, updated_at = now()
                )
                """ : ""
            return """
                WITH n AS (
                    SELECT * FROM unnest(\(batch.map(\.channel))::text[], \
                \(batch.map { $0.reference ?? $0.payload })::text[], \(batch.map(\.keepsState))::bool[], \
                \(marks.sequences)::text[], \(marks.numbers)::int8[]) \
                WITH ORDINALITY AS n(channel, payload, keeps_state, mark, marked, position)
                ), logged AS (
                    INSERT INTO broadcast_relay_events (channel, sender, number, envelope)
                    SELECT channel, \(sender), number, envelope FROM unnest(\(stored.map(\.channel))::text[], \
                \(stored.map { Int64($0.number) })::int8[], \(stored.map(\.payload))::text[]) AS r(channel, number, envelope)
                    ON CONFLICT DO NOTHING
                )\(unescaped: kept)
                SELECT pg_notify(channel, payload), \(unescaped: NotifiedMarks.advance) FROM n ORDER BY position
                """
        }

        /// The statement that sends a batch of several notifications alone,
        /// prepared once per connection (``PreparedStatements``), and the
        /// text of ``send(_:writing:sender:marks:)`` for such a batch.
        ///
        /// The server parses and plans it when ``RelaySession`` prepares it,
        /// not for each batch. Its values: ``NotificationStatement/sending(_:writing:marks:)``.
        /// Measured with `pgbench` (PostgreSQL 15, one session, the statement
        /// of one event before it advanced a mark, load average 7–9 from
        /// builds): 0.34 and 0.74 ms parsed for each run, 0.09 and 0.15 ms
        /// prepared, in two runs.
        ///
        /// Each row also advances the mark it names, if any
        /// (``NotifiedMarks/advance``): prepared, 0.088–0.097 ms against
        /// 0.073–0.082 ms without it, at load average 1 (Docs/Benchmarks.md).
        static let notifications = """
            SELECT pg_notify(channel, payload), \(NotifiedMarks.advance) \
            FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[]) \
            WITH ORDINALITY AS n(channel, payload, mark, marked, position) ORDER BY position
            """

        /// ``notifications`` for a batch of one notification: its values
        /// without arrays, the same columns.
        static let notification = """
            SELECT pg_notify(channel, payload), \(NotifiedMarks.advance) \
            FROM (VALUES ($1::text, $2::text, $3::text, $4::int8)) AS n(channel, payload, mark, marked)
            """

        /// The statement that writes rows, prepared once per connection
        /// (``PreparedStatements``), and the text of ``write(_:sender:)``.
        ///
        /// As with ``notifications``, the server parses and plans it once: a
        /// row statement that takes less time holds a `NOTIFY` posted
        /// meanwhile back less often. Its values: ``writingValues(of:sender:)``.
        static let writing = """
            INSERT INTO broadcast_relay_events (channel, sender, number, envelope)
            SELECT channel, $1, number, envelope FROM unnest($2::text[], \
            $3::int8[], $4::text[]) AS r(channel, number, envelope)
            ON CONFLICT DO NOTHING
            """

        /// The values of ``writing`` that write `rows` as `sender`'s.
        static func writingValues(of rows: [OutgoingNotification], sender: String) -> [PostgresData] {
            [
                PostgresData(string: sender),
                PostgresData(array: rows.map { PostgresData(string: $0.channel) }, elementType: .text),
                PostgresData(array: rows.map { PostgresData(int64: Int64($0.number)) }, elementType: .int8),
                PostgresData(array: rows.map { PostgresData(string: $0.payload) }, elementType: .text),
            ]
        }

        /// Writes `rows`, envelopes notified by earlier statements, numbered as
        /// `sender`'s; one already kept is not written twice.
        static func write(_ rows: [OutgoingNotification], sender: String) -> PostgresQuery {
            PostgresQuery(prepared: writing, values: writingValues(of: rows, sender: sender))
        }

        /// The latest number of each sender on `channel`: where a relay that
        /// listens for the first time starts its account.
        static func latestNumbers(on channel: String) -> PostgresQuery {
            "SELECT sender, max(number) FROM broadcast_relay_events WHERE channel = \(channel) GROUP BY sender"
        }

        /// The rows on `channel` of every sender but `receiver`, after the
        /// latest number taken from each (`latest`), or all of a sender's if
        /// none was; by sender, then number.
        static func rows(on channel: String, after latest: [String: UInt64], receiver: String) -> PostgresQuery {
            let senders = Array(latest.keys)
            let numbers = senders.map { Int64(latest[$0] ?? 0) }
            return """
                SELECT e.sender, e.number, e.envelope FROM broadcast_relay_events e
                LEFT JOIN unnest(\(senders)::text[], \(numbers)::int8[]) AS k(sender, number) ON k.sender = e.sender
                WHERE e.channel = \(channel) AND e.sender <> \(receiver) AND e.number > coalesce(k.number, 0)
                ORDER BY e.sender, e.number
                """
        }

        /// The rows of `sender` on `channel` numbered `numbers`, in order.
        static func rows(on channel: String, from sender: String, numbered numbers: ClosedRange<UInt64>)
            -> PostgresQuery
        {
            """
            SELECT sender, number, envelope FROM broadcast_relay_events
            WHERE channel = \(channel) AND sender = \(sender) \
            AND number BETWEEN \(Int64(numbers.lowerBound)) AND \(Int64(numbers.upperBound))
            ORDER BY number
            """
        }

        /// Deletes `sender`'s rows that are both older than `window` and not
        /// among the last `keptCount` of their channel (`latest` holds the
        /// latest number of each), and the rows of any sender older than
        /// `window` and a day: those of instances that have stopped.
        static func prune(sender: String, latest: [String: UInt64], window: Duration, keptCount: Int)
            -> PostgresQuery
        {
            let channels = Array(latest.keys)
            let limits = channels.map { Int64(latest[$0] ?? 0) - Int64(keptCount) }
            let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
            let stoppedSeconds = max(seconds, 86_400)
            return """
                WITH own AS (
                    DELETE FROM broadcast_relay_events e
                    USING unnest(\(channels)::text[], \(limits)::int8[]) AS k(channel, number)
                    WHERE e.sender = \(sender) AND e.channel = k.channel AND e.number <= k.number
                    AND e.sent_at < now() - make_interval(secs => \(seconds))
                )
                DELETE FROM broadcast_relay_events WHERE sent_at < now() - make_interval(secs => \(stoppedSeconds))
                """
        }
    }
#endif

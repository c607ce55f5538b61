#if PostgresRelay
    import PostgresNIO

    /// How the events an instance posts in transactions of the app's
    /// (``PostgresRelay/post(_:inTransactionOn:)``) are numbered: by the
    /// database, in the transaction, apart from the instance's other events.
    ///
    /// A receiver takes a sender's numbers in order, and reports one it did
    /// not get, and cannot read back from ``EventLog``, as lost. The relay's
    /// own statements are numbered as they are queued (``OutgoingQueue``), but
    /// a number taken in a transaction could be rolled back, or committed
    /// after a later one: receivers would report the first lost. So each
    /// instance's transactions number their events on each channel in a
    /// second series, kept in the table `broadcast_relay_transaction_numbers`:
    /// a transaction that posts one adds one to its row, which holds the row
    /// locked until it commits or rolls back. Another transaction of the
    /// instance posting on the channel waits there, then takes the next
    /// number if the first committed, or the same one if it rolled back: the
    /// numbers commit in their order, none skipped. The envelope says
    /// `"tx":true`, and its row in ``EventLog`` names the sender
    /// ``sender(_:)``, so that receivers count the series apart.
    ///
    /// The cost: transactions of one instance that post events of one type
    /// run one at a time from their post to their end; those of different
    /// instances, and the relay's other events, do not wait for them.
    enum TransactionalNumbers {
        /// Who numbers `instanceID`'s transactional events, as ``EventLog``
        /// and receivers' accounts name it.
        static func sender(_ instanceID: String) -> String {
            instanceID + suffix
        }

        /// The instance whose transactions `sender` names; nil if it names an
        /// instance.
        static func instance(numberingAs sender: String) -> String? {
            sender.hasSuffix(suffix) ? String(sender.dropLast(suffix.count)) : nil
        }

        /// Not a hexadecimal digit: no instance identifier ends so.
        private static let suffix = "/tx"

        /// Creates the table if it is absent, under a transaction-level
        /// advisory lock, like ``EventLog/create``.
        static let create: PostgresQuery = """
            DO $$ BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('broadcast_relay_transaction_numbers'));
            CREATE TABLE IF NOT EXISTS broadcast_relay_transaction_numbers (
                channel text NOT NULL,
                sender text NOT NULL,
                number bigint NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (channel, sender)
            );
            END $$
            """

        /// Numbers, keeps and sends an envelope in the transaction the
        /// statement runs in.
        ///
        /// The envelope is `payload`'s head, its number, then its tail; it is
        /// kept in ``EventLog`` as `sender`'s (``sender(_:)``), and its
        /// `NOTIFY` sent on `channel`: the envelope itself, or, if it is too
        /// large, the notification naming it (`"stored":true`), numbered
        /// likewise. Returns the number.
        static func post(channel: String, sender: String, payload: TransactionalPayload) -> PostgresQuery {
            let notified = payload.reference ?? payload.envelope
            return """
                WITH numbered AS (
                    INSERT INTO broadcast_relay_transaction_numbers AS t (channel, sender, number)
                    VALUES (\(channel), \(sender), 1)
                    ON CONFLICT (channel, sender) DO UPDATE SET number = t.number + 1, updated_at = now()
                    RETURNING number
                ), envelope AS (
                    SELECT number, \(payload.envelope.head) || number::text || \(payload.envelope.tail) AS payload,
                    \(notified.head) || number::text || \(notified.tail) AS notification FROM numbered
                ), logged AS (
                    INSERT INTO broadcast_relay_events (channel, sender, number, envelope, sent_at)
                    SELECT \(channel), \(sender), number, payload, clock_timestamp() FROM envelope
                )
                SELECT number, pg_notify(\(channel), notification) FROM envelope
                """
        }

        /// Deletes `sender`'s rows in ``EventLog`` that are both older than
        /// `window` and not among the last `keptCount` of their channel; marks
        /// its numbers as in use, hourly, where no transaction holds them; and
        /// deletes the numbers no relay marked for a day: those of instances
        /// that have stopped (their rows in ``EventLog`` go after a day too).
        ///
        /// Waits for no transaction of the app's: it reads the committed
        /// numbers and skips the rows a transaction holds.
        static func prune(sender: String, window: Duration, keptCount: Int) -> PostgresQuery {
            let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
            return """
                WITH own AS (
                    DELETE FROM broadcast_relay_events e USING broadcast_relay_transaction_numbers k
                    WHERE k.sender = \(sender) AND e.sender = k.sender AND e.channel = k.channel
                    AND e.number <= k.number - \(Int64(keptCount))
                    AND e.sent_at < now() - make_interval(secs => \(seconds))
                ), idle AS (
                    SELECT channel FROM broadcast_relay_transaction_numbers
                    WHERE sender = \(sender) AND updated_at < now() - interval '1 hour'
                    FOR UPDATE SKIP LOCKED
                ), marked AS (
                    UPDATE broadcast_relay_transaction_numbers t SET updated_at = now() FROM idle
                    WHERE t.sender = \(sender) AND t.channel = idle.channel
                ), stopped AS (
                    SELECT channel, sender FROM broadcast_relay_transaction_numbers
                    WHERE sender <> \(sender) AND updated_at < now() - interval '1 day'
                    FOR UPDATE SKIP LOCKED
                )
                DELETE FROM broadcast_relay_transaction_numbers t USING stopped s
                WHERE t.channel = s.channel AND t.sender = s.sender
                """
        }
    }
#endif

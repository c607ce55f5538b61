#if PostgresRelay
    import PostgresNIO

    /// The latest number each sender notified on each channel, advanced by
    /// the statement that sends the notifications.
    ///
    /// A sender writes the rows of what it notifies a moment later
    /// (``EventLog``): a process that ends first (killed) leaves the rows of
    /// its last few milliseconds unwritten. Instances listening then received
    /// those events; one that was not reads the marks when it listens again,
    /// finds rows up to a number below the sender's mark, and knows that the
    /// numbers between were sent: it waits for their rows while their sender
    /// may be live (it writes them within ``RelaySession/rowDelay``, or
    /// first when it reconnects), and reports those still missing lost
    /// (``RelaySession``'s `recoverMarked`).
    ///
    /// A mark is an `UNLOGGED SEQUENCE`, one per sender and channel, that
    /// the `NOTIFY`'s statement moves with `setval`: no row to update, no
    /// write-ahead log record. Measured with `pgbench` on PostgreSQL 15 (one
    /// session, each statement parsed and planned at every run): a
    /// `pg_notify` alone took 0.14–0.21 ms; with a `setval` too,
    /// 0.15–0.25 ms; with an upsert of an unlogged table's row instead,
    /// 0.30–0.46 ms. What that gives up:
    /// - `setval` is not transactional: it takes effect as the statement
    ///   runs, whether the statement commits or not, and before it does. A
    ///   mark may count numbers whose statement failed; the sender sends them
    ///   again on its next connection, so a receiver waits for them as long
    ///   as that reconnect may take, and reports them lost only if the sender
    ///   stays silent longer (it ended: they were maybe lost on its side too). A receiver that reads a
    ///   mark before the notifications it counts commit receives those live,
    ///   and does not wait for their rows.
    /// - A server that crashes (not a restart, which keeps them) resets the
    ///   marks, which start again from the next notifications.
    ///
    /// A sender creates its sequences and lists them in the table
    /// `broadcast_relay_marks` when it connects (``register(sender:channels:)``),
    /// so that receivers find them and prune finds those of stopped
    /// instances (``prune(window:)``).
    enum NotifiedMarks {
        /// The name of the sequence of the sender and channel in the
        /// columns `sender` and `channel`: 21 characters and an MD5 digest's
        /// 32, within PostgreSQL's 63.
        private static let sequenceName = "'broadcast_relay_mark_' || md5(sender || ' ' || channel)"

        /// Creates the table of sequences if it is absent, under a
        /// transaction-level advisory lock, like ``EventLog/create``.
        static let create: PostgresQuery = """
            DO $$ BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('broadcast_relay_marks'));
            CREATE TABLE IF NOT EXISTS broadcast_relay_marks (
                channel text NOT NULL,
                sender text NOT NULL,
                sequence text NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (channel, sender)
            );
            END $$
            """

        /// Lists `sender`'s sequences of `channels` in the table, returning
        /// each channel and its sequence's name, for ``createSequence(named:)``
        /// and the statements that send; run in a transaction
        /// holding the table's advisory lock, which prune takes too, so that
        /// prune drops no sequence listed again meanwhile.
        static func register(sender: String, channels: [String]) -> PostgresQuery {
            """
            INSERT INTO broadcast_relay_marks (channel, sender, sequence)
            SELECT channel, sender, \(unescaped: sequenceName) FROM unnest(\(channels)::text[]) AS c(channel), \
            (VALUES (\(sender)::text)) AS s(sender)
            ON CONFLICT (channel, sender) DO UPDATE SET updated_at = now()
            RETURNING channel, sequence
            """
        }

        /// Takes the advisory lock of the table until the transaction ends.
        static let lock: PostgresQuery = "SELECT pg_advisory_xact_lock(hashtext('broadcast_relay_marks'))"

        /// Creates the sequence `name`, which ``register(sender:channels:)``
        /// returned (letters, digits and underscores), if it is absent.
        static func createSequence(named name: String) throws -> PostgresQuery {
            guard name.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
                throw UnexpectedSequenceName(name: name)
            }
            return "CREATE UNLOGGED SEQUENCE IF NOT EXISTS \(unescaped: name)"
        }

        /// A name ``register(sender:channels:)`` returned that is not one
        /// it makes.
        struct UnexpectedSequenceName: Error {
            let name: String
        }

        /// The sequence, from `sequences` (by channel, as
        /// ``register(sender:channels:)`` returned them), and the number to
        /// advance it to, for each of `batch`'s notifications, in order: for
        /// the latest envelope on each channel kept in ``EventLog`` (not a
        /// sticky state), its number; for the others, none (an empty name).
        ///
        /// ``EventLog/send(_:writing:sender:marks:)`` calls ``advance`` on
        /// each notification's: one `setval` per channel, in the row of the
        /// `pg_notify` of its latest number.
        static func marks(of batch: [OutgoingNotification], in sequences: [String: String])
            -> (sequences: [String], numbers: [Int64])
        {
            var latest: [String: Int] = [:]
            for (position, notification) in batch.enumerated() where !notification.keepsState {
                if let earlier = latest[notification.channel], batch[earlier].number > notification.number { continue }
                latest[notification.channel] = position
            }
            var names = Array(repeating: "", count: batch.count)
            var numbers = Array(repeating: Int64(0), count: batch.count)
            for (channel, position) in latest {
                names[position] = sequences[channel] ?? ""
                numbers[position] = Int64(batch[position].number)
            }
            return (names, numbers)
        }

        /// Advances the sequence named in the column `mark` to the number in
        /// the column `marked`; nothing where `mark` is empty, or names no
        /// sequence (one dropped by hand: the sender's events are sent all
        /// the same).
        ///
        /// Never backwards: a batch put back after a failed connection is
        /// sent again with numbers the mark may count already.
        static let advance = """
            setval(to_regclass(nullif(mark, '')), greatest(marked, pg_sequence_last_value(to_regclass(nullif(mark, '')))))
            """

        /// The mark of every sender but `receiver` on `channel` that has
        /// notified since its sequence was created.
        static func marks(on channel: String, receiver: String) -> PostgresQuery {
            """
            SELECT sender, notified FROM (
                SELECT sender, pg_sequence_last_value(to_regclass(sequence)) AS notified
                FROM broadcast_relay_marks WHERE channel = \(channel) AND sender <> \(receiver)
            ) m WHERE notified IS NOT NULL
            """
        }

        /// Keeps `sender`'s sequences listed, so that prune does not drop
        /// them while it runs.
        static func keep(sender: String) -> PostgresQuery {
            "UPDATE broadcast_relay_marks SET updated_at = now() WHERE sender = \(sender)"
        }

        /// Drops the sequences not kept for `window` and a day, and their
        /// rows: those of instances that have stopped, whose rows
        /// ``EventLog/prune(sender:latest:window:keptCount:)`` deletes after
        /// as long.
        static func prune(window: Duration) -> PostgresQuery {
            let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
            let stopped = "now() - make_interval(secs => \(max(seconds, 86_400)))"
            return """
                DO $$ DECLARE name text; BEGIN
                IF EXISTS (SELECT FROM broadcast_relay_marks WHERE updated_at < \(unescaped: stopped)) THEN
                    PERFORM pg_advisory_xact_lock(hashtext('broadcast_relay_marks'));
                    FOR name IN DELETE FROM broadcast_relay_marks WHERE updated_at < \(unescaped: stopped) RETURNING sequence
                    LOOP
                        EXECUTE format('DROP SEQUENCE IF EXISTS %I', name);
                    END LOOP;
                END IF;
                END $$
                """
        }
    }
#endif

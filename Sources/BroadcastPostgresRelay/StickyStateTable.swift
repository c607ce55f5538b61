#if PostgresRelay
    import PostgresNIO

    /// The table where the relay keeps the latest state of every type relayed
    /// with `sticky: true`, so that an instance that starts, or resumes after a
    /// gap, has it: one row per channel, holding the last envelope sent on it
    /// (an event, or `"cleared":true`).
    ///
    /// A row is written by the statement that sends its envelope's `NOTIFY`:
    /// one statement is one transaction, so the row and the notification
    /// commit together, and the row holds the state of the last notification
    /// committed on its channel (a writer waits on the row's lock for the one
    /// before it to commit).
    enum StickyStateTable {
        /// The table's name, in the connection's default schema.
        static let name = "broadcast_relay_sticky"

        /// Creates the table if it is absent.
        ///
        /// Under a transaction-level advisory lock, in one `DO` block (one
        /// transaction): two sessions running `CREATE TABLE IF NOT EXISTS` at
        /// once may otherwise both find it absent, and one fail.
        static let create: PostgresQuery = """
            DO $$ BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('broadcast_relay_sticky'));
            CREATE TABLE IF NOT EXISTS broadcast_relay_sticky (
                channel text PRIMARY KEY,
                envelope text NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now()
            );
            END $$
            """

        /// Sends `batch` in one statement, in order, keeping in the table the
        /// last envelope of each channel whose payloads keep a state.
        ///
        /// The rows are written by a data-modifying `WITH`, which runs to
        /// completion whether or not the query reads it, in the statement's
        /// transaction; one row is written once per statement, so only the
        /// last payload of each channel is kept.
        static func send(_ batch: [OutgoingNotification]) -> PostgresQuery {
            """
            WITH n AS (
                SELECT * FROM unnest(\(batch.map(\.channel))::text[], \(batch.map(\.payload))::text[], \
            \(batch.map(\.keepsState))::bool[]) WITH ORDINALITY AS n(channel, payload, keeps_state, position)
            ), kept AS (
                INSERT INTO broadcast_relay_sticky (channel, envelope)
                SELECT DISTINCT ON (channel) channel, payload FROM n WHERE keeps_state ORDER BY channel, position DESC
                ON CONFLICT (channel) DO UPDATE SET envelope = EXCLUDED.envelope, updated_at = now()
            )
            SELECT pg_notify(channel, payload) FROM n ORDER BY position
            """
        }

        /// Reads the rows of `channels`.
        static func read(_ channels: [String]) -> PostgresQuery {
            "SELECT channel, envelope FROM broadcast_relay_sticky WHERE channel = ANY(\(channels)::text[])"
        }
    }
#endif

#if PostgresRelay
    import PostgresNIO

    /// The table where the relay keeps the latest state of every type relayed
    /// with `sticky: true`, so that an instance that starts, or resumes after a
    /// gap, has it: one row per channel, holding the last envelope sent on it
    /// (an event, or `"cleared":true`).
    ///
    /// A row is written by the statement that sends its envelope's `NOTIFY`
    /// (``EventLog/send(_:writing:sender:marks:)``):
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

        /// Reads the rows of `channels`.
        static func read(_ channels: [String]) -> PostgresQuery {
            "SELECT channel, envelope FROM broadcast_relay_sticky WHERE channel = ANY(\(channels)::text[])"
        }
    }
#endif

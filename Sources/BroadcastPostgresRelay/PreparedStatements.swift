#if PostgresRelay
    import PostgresNIO

    /// The statements a session sends for nearly every event, prepared on its
    /// connection: the server parses and plans each once, not at every run.
    ///
    /// Each is a text ``EventLog`` keeps, which it also sends unprepared
    /// (``PostgresQuery/init(prepared:values:)``); the others (a batch that keeps a sticky state or
    /// writes rows, the refusals looked for one by one) are sent unprepared.
    /// One sending task uses them.
    struct PreparedStatements {
        /// ``NotificationStatement/one`` and ``NotificationStatement/several``,
        /// for a batch of notifications alone; prepared as the session
        /// starts.
        private let one: PreparedQuery
        private let several: PreparedQuery
        private let connection: PostgresConnection
        private var preparedWriting: PreparedQuery?

        init(preparedOn connection: PostgresConnection) async throws {
            self.connection = connection
            one = try await connection.prepareToEnd(NotificationStatement.one.text)
            several = try await connection.prepareToEnd(NotificationStatement.several.text)
        }

        /// `statement`, prepared on this connection.
        func prepared(_ statement: NotificationStatement) -> PreparedQuery {
            switch statement {
            case .one: one
            case .several: several
            }
        }

        /// ``EventLog/writing``, for the rows of envelopes notified before;
        /// prepared the first time it is asked for.
        ///
        /// Not as the session starts: preparing an `INSERT` locks the table
        /// as writing does, and a session listens, and reads the table,
        /// while another transaction keeps writes out of it.
        mutating func writing() async throws -> PreparedQuery {
            if let preparedWriting { return preparedWriting }
            let prepared = try await connection.prepareToEnd(EventLog.writing)
            preparedWriting = prepared
            return prepared
        }
    }
#endif

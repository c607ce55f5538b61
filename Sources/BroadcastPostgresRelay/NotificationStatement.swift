#if PostgresRelay
    import PostgresNIO

    /// Which of the statements prepared for a batch of notifications alone
    /// (``PreparedStatements``) sends a batch, and with which values.
    ///
    /// A batch of one, the usual one while events come one at a time, is
    /// sent without arrays: measured with `pgbench` (PostgreSQL 15, one
    /// session, prepared, with the mark), 0.074–0.089 ms against 0.090–0.103
    /// ms for the same notification in one-element arrays
    /// (Docs/Benchmarks.md).
    enum NotificationStatement {
        /// ``EventLog/notification``: one notification.
        case one
        /// ``EventLog/notifications``: several, in arrays, in order.
        case several

        /// The statement's text, which ``EventLog`` keeps.
        var text: String {
            switch self {
            case .one: EventLog.notification
            case .several: EventLog.notifications
            }
        }

        /// The statement that sends `batch`, with `rows`, and its values,
        /// which advance the marks `sequences` names by channel; nil unless
        /// ``EventLog/send(_:writing:sender:marks:)`` sends it by
        /// notifications alone: no row to write, no sticky state, no
        /// envelope by reference.
        static func sending(
            _ batch: [OutgoingNotification], writing rows: [OutgoingNotification], marks sequences: [String: String]
        ) -> (statement: NotificationStatement, values: [PostgresData])? {
            guard rows.isEmpty, !batch.isEmpty, !batch.contains(where: { $0.keepsState || $0.reference != nil }) else {
                return nil
            }
            let marks = NotifiedMarks.marks(of: batch, in: sequences)
            guard batch.count > 1 else {
                return (
                    .one,
                    [
                        PostgresData(string: batch[0].channel), PostgresData(string: batch[0].payload),
                        PostgresData(string: marks.sequences[0]), PostgresData(int64: marks.numbers[0]),
                    ]
                )
            }
            return (
                .several,
                [
                    PostgresData(array: batch.map { PostgresData(string: $0.channel) }, elementType: .text),
                    PostgresData(array: batch.map { PostgresData(string: $0.payload) }, elementType: .text),
                    PostgresData(array: marks.sequences.map { PostgresData(string: $0) }, elementType: .text),
                    PostgresData(array: marks.numbers.map { PostgresData(int64: $0) }, elementType: .int8),
                ]
            )
        }
    }
#endif

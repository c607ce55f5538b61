#if PostgresRelay
    import PostgresNIO

    extension PostgresRelay {
        /// Posts `event` with the transaction `connection` is in: every
        /// instance's listeners receive it once the transaction commits, and
        /// none if it rolls back.
        ///
        /// For an event that says what the transaction wrote (a message
        /// stored, an order paid): no instance hears of a change that was
        /// rolled back, and none misses one that committed.
        ///
        /// ```swift
        /// try await client.withTransaction { connection in
        ///     try await connection.query("INSERT INTO messages (room, text) VALUES (\(room), \(text))")
        ///     try await relay.post(ChatMessage(room: room, text: text), inTransactionOn: connection)
        /// }
        /// ```
        ///
        /// - **When listeners are called.** On every instance, this one
        ///   included, when its relay receives the event after the commit,
        ///   as it receives other instances' events: never before the commit,
        ///   never after a rollback. So this instance's listeners are called
        ///   once the notification came back through its relay's connection,
        ///   not during this call; while the relay reconnects, when it reads
        ///   the event back on resuming.
        /// - **Delivered as any event.** Once, in commit order, read back after
        ///   a gap, or reported lost (``RelayLoss/inTransactions``). The
        ///   transaction writes the event's row in `broadcast_relay_events`
        ///   and its `NOTIFY`, so a receiver reads back only an event whose
        ///   transaction committed. An event too large for a notification
        ///   (over the configuration's `notificationLimit`, up to its
        ///   `payloadLimit`) travels as any
        ///   other does: its `NOTIFY` names its row, which receivers read.
        /// - **Numbered by the database.** An instance's transactions number
        ///   their events on each channel 1, 2, 3…, apart from its other
        ///   events, in a row of `broadcast_relay_transaction_numbers` that a
        ///   transaction holds from its post to its end. So transactions of
        ///   this instance that post events of one type run one at a time from
        ///   the post on (the relay's other events, and other instances, do
        ///   not wait), a rolled-back transaction takes no number, and no
        ///   receiver reports a loss for it. Post late in the transaction, and
        ///   post the types of one transaction in the same order everywhere:
        ///   two transactions posting two types in opposite orders deadlock,
        ///   and the server ends one with an error. At `REPEATABLE READ` or
        ///   `SERIALIZABLE`, a transaction that waited there fails with a
        ///   serialization failure, to be retried.
        /// - **Not counted in ``counts``' `sent`**: the relay cannot know
        ///   whether the transaction commits. Each instance that posts the
        ///   event counts it in `received`.
        ///
        /// The relay creates the table it numbers in when it first connects:
        /// post once ``listening()`` has returned.
        ///
        /// - Parameters:
        ///   - event: An event of a type this relay relays, not sticky.
        ///   - connection: A connection inside a transaction (`BEGIN` sent,
        ///     for example by `PostgresClient.withTransaction`).
        /// - Throws: ``PostgresRelayError/notRelayedInTransactions(_:)`` if
        ///   this relay does not relay `Event`, or relays it sticky;
        ///   ``PostgresRelayError/encodingFailed(_:)``;
        ///   ``PostgresRelayError/payloadTooLarge(byteCount:limit:)``;
        ///   ``PostgresRelayError/relayStopped`` if the relay has stopped;
        ///   or the error of the statement, which, like any failed
        ///   statement, aborts the transaction.
        public func post<Event: Codable & Sendable>(_ event: Event, inTransactionOn connection: PostgresConnection)
            async throws
        {
            guard status != .stopped else { throw PostgresRelayError.relayStopped }
            guard let route = routes.lazy.compactMap({ $0 as? EventRoute<Event> }).first, !route.sticky else {
                throw PostgresRelayError.notRelayedInTransactions(String(reflecting: Event.self))
            }
            let payload = try route.transactionalPayload(event)
            let rows = try await connection.query(
                TransactionalNumbers.post(
                    channel: route.channel, sender: TransactionalNumbers.sender(instanceID), payload: payload),
                logger: logger)
            for try await _ in rows {}
        }
    }
#endif

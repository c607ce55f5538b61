#if PostgresRelay
    extension EventRoute {
        /// The envelope of `event`, posted here in a transaction of the app's,
        /// in two parts that its number goes between
        /// (``TransactionalNumbers``), with the posting task's trace context;
        /// and, if the envelope is too large to be its own notification, the
        /// notification naming it, in two parts likewise.
        ///
        /// - Throws: ``PostgresRelayError/encodingFailed(_:)``, or
        ///   ``PostgresRelayError/payloadTooLarge(byteCount:limit:)`` if the
        ///   envelope, with a number of the most digits one can have (20), is
        ///   over the payload limit.
        func transactionalPayload(_ event: Event) throws(PostgresRelayError) -> TransactionalPayload {
            let eventJSON: String
            do {
                eventJSON = try encode(event)
            } catch {
                throw .encodingFailed(error)
            }
            let trail = RelayTrail(sequence: context.instance.nextSequence(), path: [context.instance.id])
            let (head, tail) = trail.transactionalPayload(eventJSON: eventJSON, trace: TraceCarrier.current())
            let byteCount = head.utf8.count + String(UInt64.max).utf8.count + tail.utf8.count
            guard byteCount <= context.payloadLimit else {
                throw .payloadTooLarge(byteCount: byteCount, limit: context.payloadLimit)
            }
            guard byteCount > context.notificationLimit else {
                return TransactionalPayload(envelope: (head, tail), reference: nil)
            }
            return TransactionalPayload(envelope: (head, tail), reference: trail.transactionalStoredPayload())
        }
    }

    /// The envelope of an event posted in a transaction, and the
    /// notification naming it if it is too large to be its own: each in two
    /// parts that its number goes between (``TransactionalNumbers``).
    struct TransactionalPayload {
        let envelope: (head: String, tail: String)
        let reference: (head: String, tail: String)?
    }
#endif

#if PostgresRelay
    extension EventRoute {
        /// The envelope of `event`, posted here in a transaction of the app's,
        /// in two parts that its number goes between
        /// (``TransactionalNumbers``), with the posting task's trace context.
        ///
        /// - Throws: ``PostgresRelayError/encodingFailed(_:)``, or
        ///   ``PostgresRelayError/payloadTooLarge(byteCount:limit:)`` if the
        ///   envelope, with a number of the most digits one can have (20), is
        ///   over the payload limit.
        func transactionalPayload(_ event: Event) throws(PostgresRelayError) -> (head: String, tail: String) {
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
            return (head, tail)
        }
    }
#endif

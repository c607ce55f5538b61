#if PostgresRelay
    import NIOCore

    /// Whether a delivery runs on a ``DeliveryLine``, and the deliveries
    /// waiting their turn there.
    ///
    /// The state alone: the line keeps it behind its lock, and runs the
    /// deliveries after unlocking.
    struct DeliveryLineState<Delivery: Sendable>: Sendable {
        private var isRunning = false
        private var waiting = CircularBuffer<Delivery>()

        /// Hands `delivery` over: `true` if none runs, and the caller is to
        /// run it now, then run what ``next()`` returns until it returns nil;
        /// `false` if it waits its turn.
        mutating func handOver(_ delivery: Delivery) -> Bool {
            guard !isRunning else {
                waiting.append(delivery)
                return false
            }
            isRunning = true
            return true
        }

        /// How many deliveries wait their turn.
        var waitingCount: Int { waiting.count }

        /// The delivery to run next, for the caller that ran the one before;
        /// nil, leaving the line free, once none waits.
        mutating func next() -> Delivery? {
            guard let delivery = waiting.popFirst() else {
                isRunning = false
                return nil
            }
            return delivery
        }
    }
#endif

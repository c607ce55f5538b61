#if PostgresRelay
    /// The last `capacity` events recorded, to tell one seen lately.
    struct RecentEvents {
        struct Event: Hashable {
            let origin: String
            let sequence: UInt64
        }

        let capacity: Int
        private var members: Set<Event> = []
        /// The members in the order recorded, oldest at `oldest`, overwritten in
        /// a circle once full.
        private var order: [Event] = []
        private var oldest = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Records `event`; `false` if it is among the last `capacity` recorded.
        mutating func insert(_ event: Event) -> Bool {
            guard members.insert(event).inserted else { return false }
            if order.count < capacity {
                order.append(event)
            } else {
                members.remove(order[oldest])
                order[oldest] = event
                oldest = (oldest + 1) % capacity
            }
            return true
        }
    }
#endif

#if PostgresRelay
    import NIOCore

    /// The deliveries of received events waiting on each channel of one
    /// instance, run one at a time per channel, in the order handed over.
    ///
    /// A delivery records its event as posted here and posts it. Two relays
    /// of one broadcaster on one database receive every event, each on its
    /// own connection; if each ran its deliveries where it received them, one
    /// could record event 2 and, while listeners took their time on it, the
    /// other skip its copy of 2 and post 3 first. So every relay of the
    /// instance hands its deliveries over here: one handed over while another
    /// runs on its channel waits, and the caller running that one runs it
    /// next. Each relay hands its own over in the order received, so the
    /// first copy of each event is posted in its origin's order.
    ///
    /// The state alone: ``InstanceIdentity`` keeps it behind its lock, and
    /// runs the deliveries after unlocking.
    struct DeliveryLines<Delivery: Sendable>: Sendable {
        /// The deliveries waiting on each channel where one is running.
        private var waiting: [String: CircularBuffer<Delivery>] = [:]

        /// Hands `delivery` over on `channel`: `true` if none runs there, and
        /// the caller is to run it now, then run what ``next(on:)`` returns
        /// until it returns nil; `false` if it waits its turn.
        mutating func handOver(_ delivery: Delivery, on channel: String) -> Bool {
            guard waiting[channel] == nil else {
                waiting[channel]?.append(delivery)
                return false
            }
            waiting[channel] = CircularBuffer()
            return true
        }

        /// The delivery to run next on `channel`, for the caller that ran the
        /// one before; nil, leaving the channel free, once none waits.
        mutating func next(on channel: String) -> Delivery? {
            guard let delivery = waiting[channel]?.popFirst() else {
                waiting[channel] = nil
                return nil
            }
            return delivery
        }
    }
#endif

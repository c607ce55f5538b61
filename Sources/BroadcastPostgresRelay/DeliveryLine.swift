#if PostgresRelay
    import NIOConcurrencyHelpers

    /// Runs the deliveries of the events received on one channel of an
    /// instance one at a time, in the order handed over.
    ///
    /// A delivery records its event as posted here and posts it. Two relays
    /// of one broadcaster on one database receive every event, each on its
    /// own connection; if each ran its deliveries where it received them, one
    /// could record event 2 and, while listeners took their time on it, the
    /// other skip its copy of 2 and post 3 first. So the routes of a channel
    /// on an instance share its line (``InstanceIdentity/deliveryLine(for:)``):
    /// a delivery handed over while another runs waits, and the caller
    /// running that one runs it next. Each relay hands its own over in the
    /// order received, so the first copy of each event is posted in its
    /// origin's order.
    final class DeliveryLine: Sendable {
        private let state = NIOLockedValueBox(DeliveryLineState<@Sendable () -> Void>())

        /// Runs `delivery` once every delivery handed over before it has run:
        /// now, on this thread, if none runs, or else after them, on the
        /// thread running them.
        ///
        /// A delivery runs after unlocking, and is released after it has run,
        /// outside the lock too: it holds an event, whose release may run a
        /// `deinit` that posts.
        func deliverInOrder(_ delivery: @escaping @Sendable () -> Void) {
            guard state.withLockedValue({ $0.handOver(delivery) }) else { return }
            delivery()
            while let next = state.withLockedValue({ $0.next() }) {
                next()
            }
        }

        /// How many deliveries wait their turn.
        var waitingCount: Int {
            state.withLockedValue { $0.waitingCount }
        }

        /// Runs `delivery` as ``deliverInOrder(_:)`` does, and returns once
        /// it has run.
        func deliverInOrderAndWait(_ delivery: @escaping @Sendable () -> Void) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                deliverInOrder {
                    delivery()
                    continuation.resume()
                }
            }
        }
    }
#endif

#if PostgresRelay
    import NIOConcurrencyHelpers

    /// The instances a relay heard a heartbeat from, and when: each relay's
    /// health check is a `NOTIFY` on ``channel`` carrying its instance's
    /// identifier (``Heartbeat``), which every relay of the database listens
    /// to.
    final class LiveInstances: Sendable {
        /// The channel of the heartbeats.
        static let channel = "broadcast_relay_heartbeat"

        private let lastHeard = NIOLockedValueBox<[String: ContinuousClock.Instant]>([:])

        /// Records a heartbeat of `instanceID`, now.
        func heard(_ instanceID: String) {
            let now = ContinuousClock.now
            lastHeard.withLockedValue { $0[instanceID] = now }
        }

        /// When `instanceID` was last heard, if it was and is not forgotten.
        func lastHeard(_ instanceID: String) -> ContinuousClock.Instant? {
            lastHeard.withLockedValue { $0[instanceID] }
        }

        /// The instances heard within `window`, sorted; forgets the others.
        func heard(within window: Duration) -> [String] {
            let oldest = ContinuousClock.now - window
            return lastHeard.withLockedValue { lastHeard in
                lastHeard = lastHeard.filter { $0.value >= oldest }
                return lastHeard.keys.sorted()
            }
        }
    }
#endif

#if PostgresRelay
    import Broadcast
    import NIOConcurrencyHelpers
    import Synchronization

    /// The identity of one broadcaster among the instances a relay connects: the
    /// `origin` an envelope names and the entries of its path.
    ///
    /// Every relay of the same broadcaster in a process shares it, so that an
    /// event that reached this broadcaster through one relay is recognised when
    /// it comes back through another. It lives as long as a relay of that
    /// broadcaster does (each keeps it and its broadcaster), so the broadcaster's
    /// `ObjectIdentifier` cannot be reused by another broadcaster meanwhile.
    final class InstanceIdentity: Sendable {
        /// Random, so that instances need no configuration to tell themselves
        /// apart: 64 bits, in 16 hexadecimal digits.
        let id: String
        /// Numbers the events this instance originates, so that no two of its
        /// envelopes are the same text (PostgreSQL delivers identical payloads
        /// sent on a channel in one transaction once).
        private let sequence = Atomic<UInt64>(0)
        /// The events of other instances posted here lately, so that an event
        /// arriving a second time by another route (two relays of this
        /// broadcaster on one database, two paths between two instances) is
        /// not posted again.
        private let recentlyPosted = NIOLockedValueBox(RecentEvents(capacity: 4096))

        private init() {
            let random = UInt64.random(in: .min ... .max)
            let digits = String(random, radix: 16)
            id = String(repeating: "0", count: 16 - digits.count) + digits
        }

        /// The line of each channel (see ``DeliveryLine``).
        private let deliveryLines = NIOLockedValueBox<[String: DeliveryLine]>([:])

        /// How many routes of this instance's relays, alive, relay each event
        /// type (see ``isOnlyRoute(of:)``).
        private let routeCounts = NIOLockedValueBox<[ObjectIdentifier: Int]>([:])

        /// The next sequence number of an event this instance originates.
        func nextSequence() -> UInt64 {
            sequence.add(1, ordering: .relaxed).newValue
        }

        /// Records that the event numbered `sequence` by `origin` is being
        /// posted here; `false` if it was, lately.
        func recordPosting(origin: String, sequence: UInt64) -> Bool {
            recentlyPosted.withLockedValue { $0.insert(RecentEvents.Event(origin: origin, sequence: sequence)) }
        }

        /// The line the routes of `channel` on this instance hand their
        /// deliveries to, made on first use.
        func deliveryLine(for channel: String) -> DeliveryLine {
            deliveryLines.withLockedValue { lines in
                if let line = lines[channel] { return line }
                let line = DeliveryLine()
                lines[channel] = line
                return line
            }
        }

        /// Counts a route of `eventType`, made by a relay of this instance,
        /// until ``removeRoute(of:)``.
        func addRoute(of eventType: ObjectIdentifier) {
            routeCounts.withLockedValue { $0[eventType, default: 0] += 1 }
        }

        /// Stops counting a route of `eventType`: the route is released.
        func removeRoute(of eventType: ObjectIdentifier) {
            routeCounts.withLockedValue { counts in
                counts[eventType, default: 1] -= 1
                if counts[eventType] == 0 { counts[eventType] = nil }
            }
        }

        /// Whether a single route of this instance's relays relays
        /// `eventType`: then, for an event of that type the route asking
        /// posts, no other relay's handler is called.
        func isOnlyRoute(of eventType: ObjectIdentifier) -> Bool {
            routeCounts.withLockedValue { $0[eventType] == 1 }
        }

        private struct WeakIdentity {
            weak var identity: InstanceIdentity?
        }

        private static let identities = NIOLockedValueBox<[ObjectIdentifier: WeakIdentity]>([:])

        /// The identity of `broadcaster`, made on first use.
        static func of(_ broadcaster: Broadcaster) -> InstanceIdentity {
            identities.withLockedValue { identities in
                let key = ObjectIdentifier(broadcaster)
                if let existing = identities[key]?.identity { return existing }
                identities = identities.filter { $0.value.identity != nil }
                let identity = InstanceIdentity()
                identities[key] = WeakIdentity(identity: identity)
                return identity
            }
        }
    }
#endif

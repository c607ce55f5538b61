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

        /// The deliveries of received events waiting their turn (see
        /// ``DeliveryLines``).
        private let deliveries = NIOLockedValueBox(DeliveryLines<@Sendable () -> Void>())

        /// The next sequence number of an event this instance originates.
        func nextSequence() -> UInt64 {
            sequence.add(1, ordering: .relaxed).newValue
        }

        /// Records that the event numbered `sequence` by `origin` is being
        /// posted here; `false` if it was, lately.
        func recordPosting(origin: String, sequence: UInt64) -> Bool {
            recentlyPosted.withLockedValue { $0.insert(RecentEvents.Event(origin: origin, sequence: sequence)) }
        }

        /// Runs `delivery` once every delivery handed over on `channel` before
        /// it has run: now, on this thread, if none runs there, or else after
        /// them, on the thread running them.
        ///
        /// A delivery runs after unlocking, and is released after it has run,
        /// outside the lock too: it holds an event, whose release may run a
        /// `deinit` that posts.
        func deliverInOrder(on channel: String, _ delivery: @escaping @Sendable () -> Void) {
            guard deliveries.withLockedValue({ $0.handOver(delivery, on: channel) }) else { return }
            delivery()
            while let next = deliveries.withLockedValue({ $0.next(on: channel) }) {
                next()
            }
        }

        /// Runs `delivery` as ``deliverInOrder(on:_:)`` does, and returns once
        /// it has run.
        func deliverInOrderAndWait(on channel: String, _ delivery: @escaping @Sendable () -> Void) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                deliverInOrder(on: channel) {
                    delivery()
                    continuation.resume()
                }
            }
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

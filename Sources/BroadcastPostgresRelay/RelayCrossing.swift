#if PostgresRelay
    import Broadcast
    import Foundation

    /// An event a relay received and is posting on its broadcaster, recorded on
    /// the posting thread while the post runs.
    ///
    /// Every relay of the event's type on that broadcaster has a handler, called
    /// inside that post on the same thread (handlers registered from code
    /// isolated to no actor run where the post runs). The handler finds the
    /// crossing and knows the event came from the database:
    /// - the relay that posted it sends nothing (it came from that relay's
    ///   database, and its other instances have it already);
    /// - another relay of the same broadcaster, connected to another database,
    ///   forwards it with the event's trail, so that the path keeps naming every
    ///   instance it has been posted on.
    ///
    /// The handler compares the event's JSON, not only its type: a listener that
    /// posts another event of the same type synchronously while the received one
    /// is delivered (a reply) makes a post of its own, which is relayed. A reply
    /// identical to the received event has its JSON too; a relay's handler is
    /// called once for the received event, so it takes the first call that
    /// matches for it (``takeCall(of:)``), and any other for a reply.
    ///
    /// Why per thread and not a task-local value: a task-local value would be
    /// inherited by tasks a listener starts, and their later, unrelated posts
    /// would be taken for the received event.
    struct RelayCrossing {
        /// The broadcaster's instance.
        let instance: String
        /// The relay posting.
        let relay: Int
        /// The event's type.
        let eventType: ObjectIdentifier
        /// The event, encoded as the handler encodes it.
        let eventJSON: String
        /// Where the event comes from, this instance included.
        let trail: RelayTrail

        /// The relays whose handler has taken a call for the received event.
        private let takenCalls = TakenCalls()

        /// Read and written only on the thread the crossing is recorded on,
        /// while it is: a crossing is found only there (``current(instance:eventType:eventJSON:)``).
        private final class TakenCalls {
            var relays: Set<Int> = []
        }

        /// Whether this call of `relay`'s handler, whose event matches, is the
        /// call for the received event: its first; a later one is for a reply
        /// identical to it.
        func takeCall(of relay: Int) -> Bool {
            takenCalls.relays.insert(relay).inserted
        }

        /// The innermost crossing on the current thread of an event of
        /// `eventType` on `instance` whose JSON is `eventJSON`.
        static func current(instance: String, eventType: ObjectIdentifier, eventJSON: String) -> RelayCrossing? {
            inProgress.current.last { (crossing: RelayCrossing) in
                crossing.instance == instance && crossing.eventType == eventType && crossing.eventJSON == eventJSON
            }
        }

        /// Runs `body` with this crossing recorded on the current thread.
        func whileCrossing<Result>(_ body: () throws -> Result) rethrows -> Result {
            try Self.inProgress.with(self, body)
        }

        private static let inProgress = ThreadStack<RelayCrossing>(key: "BroadcastPostgresRelay.crossingsInProgress")
    }
#endif

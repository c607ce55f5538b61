#if PostgresRelay
    import Broadcast
    import Foundation

    /// An event a relay received and is posting on its broadcaster, recorded on
    /// the posting thread while the post runs.
    ///
    /// Every relay of the event's type on that broadcaster has a handler, called
    /// inside that post on the same thread (handlers registered from code
    /// isolated to no actor run where the post runs), and so is every post a
    /// listener makes there in reply. A handler finds the crossing and tells
    /// the two apart:
    /// - the relay that posts the event passes over its own handler
    ///   (`post(_:skipping:isolation:)`): every call that handler gets during
    ///   the crossing is a reply, relayed as any post;
    /// - another relay of the same broadcaster, connected to another database,
    ///   forwards the received event with its trail, so that the path keeps
    ///   naming every instance it has been posted on. Its handler is called
    ///   once for the event, so it takes the first call whose event has the
    ///   event's JSON (``takeCall(of:eventJSON:)``): a reply identical to the
    ///   event has that JSON too, and is relayed as a new event.
    ///
    /// A sticky type's state is sent by an observer of its changes, which no
    /// post passes over: there the relay that posts takes its first matching
    /// call too.
    ///
    /// A relay that passes over its own handler records no crossing when no
    /// other relay of its broadcaster relays the type
    /// (``InstanceIdentity/isOnlyRoute(of:)``): no handler would look for it.
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
        /// Where the event comes from, this instance included.
        let trail: RelayTrail

        private let progress: Progress

        /// Read and written only on the thread the crossing is recorded on,
        /// while it is: a crossing is found only there (``call(of:instance:eventType:eventJSON:)``).
        private final class Progress {
            /// The relays whose handler has had its call for the received event.
            var relaysCalled: Set<Int>
            /// The event, encoded as a handler encodes it: made when a handler
            /// first compares, which only another relay's handler, or a sticky
            /// type's observer, does.
            lazy var eventJSON: String? = makeEventJSON()
            private let makeEventJSON: () -> String?

            init(relaysCalled: Set<Int>, eventJSON: @escaping () -> String?) {
                self.relaysCalled = relaysCalled
                self.makeEventJSON = eventJSON
            }
        }

        /// A crossing of an event posted by `relay`, which passes over its own
        /// handler if `skipsOwnHandler`; `eventJSON` makes the event's JSON,
        /// the first time a handler compares.
        init(
            instance: String, relay: Int, eventType: ObjectIdentifier, trail: RelayTrail, skipsOwnHandler: Bool,
            eventJSON: @escaping () -> String?
        ) {
            self.instance = instance
            self.relay = relay
            self.eventType = eventType
            self.trail = trail
            progress = Progress(relaysCalled: skipsOwnHandler ? [relay] : [], eventJSON: eventJSON)
        }

        /// Whether this call of `relay`'s handler, with an event encoded as
        /// `eventJSON`, is its call for the received event: the first whose
        /// JSON is the event's.
        private func takeCall(of relay: Int, eventJSON: String) -> Bool {
            guard !progress.relaysCalled.contains(relay), progress.eventJSON == eventJSON else { return false }
            progress.relaysCalled.insert(relay)
            return true
        }

        /// The innermost crossing on the current thread, of an `eventType` on
        /// `instance`, whose received event this call of `relay`'s handler,
        /// with an event encoded as `eventJSON`, is; nil for any other call.
        static func call(of relay: Int, instance: String, eventType: ObjectIdentifier, eventJSON: String)
            -> RelayCrossing?
        {
            for crossing in inProgress.current.reversed()
            where crossing.instance == instance && crossing.eventType == eventType
                && crossing.takeCall(of: relay, eventJSON: eventJSON)
            {
                return crossing
            }
            return nil
        }

        /// Runs `body` with this crossing recorded on the current thread.
        func whileCrossing<Result>(_ body: () throws -> Result) rethrows -> Result {
            try Self.inProgress.with(self, body)
        }

        private static let inProgress = ThreadStack<RelayCrossing>(key: "BroadcastPostgresRelay.crossingsInProgress")
    }
#endif

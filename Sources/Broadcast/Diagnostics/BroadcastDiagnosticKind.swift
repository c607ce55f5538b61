extension BroadcastDiagnostic {
    /// What went wrong: one of the static members, compared with `==` or
    /// matched in a `switch` (`case .listenerReleasedOnRegistration:`).
    ///
    /// A struct with static members, not an enum, so that a later release
    /// (or another of Broadcast's modules: `BroadcastSystemBridge` declares
    /// `notificationRejected`) can add a kind without breaking a `switch`
    /// written against this one.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// A kind named `name`; for Broadcast's modules, which declare their
        /// kinds as static members.
        package init(_ name: String) {
            self.name = name
        }

        /// The kind's name, as its static member spells it.
        public var description: String { name }

        /// ``Broadcaster/addListener(_:receivingSticky:isolation:fileID:line:)-(AnyObjectSendable,_,_,_,_)``
        /// held the last strong reference to the listener: it was deallocated
        /// before the call returned and can never be called.
        ///
        /// Only reported when the argument itself is the last reference
        /// (`addListener(Downloader())`, `addListener(makeListener())`), which
        /// is certain to be a mistake: such a listener can never receive
        /// anything. An object that registers itself in its initializer and
        /// that the caller then drops (`_ = Downloader(broadcaster:)`) dies
        /// after the call, like any listener released on purpose, so it is not
        /// reported; ``Broadcaster/deliveryExplanation(for:to:isolation:)``
        /// and ``Broadcaster/isRegistered(_:)`` help there.
        public static let listenerReleasedOnRegistration = Kind("listenerReleasedOnRegistration")

        /// The listener conforms to the protocol named
        /// ``BroadcastDiagnostic/protocolName`` only on the main actor (an
        /// isolated conformance: `extension Screen: @MainActor FeedListener`,
        /// or a plain conformance of a main-actor class where conformance
        /// isolation is inferred), but was registered from code that is not
        /// isolated to the main actor, so it has no actor or another one.
        ///
        /// Broadcast then does not move its calls to the main actor. This
        /// runtime checks the isolation in every cast, so the listener is
        /// skipped wherever the cast fails; the Swift runtimes of Apple OS
        /// releases before the 26 generation (iOS 18, macOS 15, …) have no
        /// such check, let the cast succeed anywhere, and a broadcast from
        /// another thread would call the listener there: a data race.
        /// Register it from main-actor code instead, for example in its
        /// `@MainActor` initializer.
        ///
        /// Found once per broadcaster, listener class and protocol, when a
        /// broadcast or query to that protocol takes the registration in on
        /// the main actor (or, if it was first taken in elsewhere, the next
        /// time the protocol's listeners are looked up on the main actor):
        /// the cast succeeds there and fails on a new thread. The report is
        /// handed over on the main actor, once it runs
        /// (``Broadcaster/waitForScheduledDeliveries()`` waits for it).
        /// Conformances isolated to other global actors are not checked.
        public static let isolatedConformanceRegisteredOffMainActor = Kind(
            "isolatedConformanceRegisteredOffMainActor")
    }
}

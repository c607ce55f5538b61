extension BroadcastDiagnostic {
    /// What went wrong: one of the static members, compared with `==` or
    /// matched in a `switch`; a struct, so that a release or another module
    /// (`BroadcastSystemBridge`'s `notificationRejected`) can add a kind.
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
        /// (`addListener(Downloader())`), which is certain to be a mistake.
        public static let listenerReleasedOnRegistration = Kind("listenerReleasedOnRegistration")

        /// The listener conforms to the protocol named
        /// ``BroadcastDiagnostic/protocolName`` only on the main actor (an
        /// isolated conformance: `extension Screen: @MainActor FeedListener`,
        /// or a plain conformance of a main-actor class where conformance
        /// isolation is inferred), but was registered from code that is not
        /// isolated to the main actor, so it has no actor or another one.
        ///
        /// Runtimes of Apple OS releases before the 26 generation do not check
        /// the isolation in a cast, so a broadcast from another thread would
        /// call the listener there: a data race. Register it from main-actor
        /// code instead. Found once per listener class and protocol, when its
        /// listeners are looked up on the main actor; handed over on the main
        /// actor.
        public static let isolatedConformanceRegisteredOffMainActor = Kind(
            "isolatedConformanceRegisteredOffMainActor")

        /// A broadcast made off the main actor did not keep its calls to
        /// listeners registered with no actor that the main actor has not
        /// settled yet (``BroadcastDiagnostic/typeName`` names one of them):
        /// the calls of 1,000 broadcasts were already waiting for the main actor.
        ///
        /// Such a call waits with its payload until the main actor casts the
        /// listener; a program whose main actor does not run would otherwise
        /// keep every one. Register listeners whose conformance is isolated
        /// to the main actor from main-actor code or with
        /// `calledOn: MainActor.shared`. Reported once per broadcaster.
        public static let unsettledCallLimitReached = Kind("unsettledCallLimitReached")
    }
}

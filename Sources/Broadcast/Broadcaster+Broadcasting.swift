extension Broadcaster {
    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType`, in registration order.
    ///
    /// A listener is called here, before this returns, unless it belongs to
    /// an actor the broadcast does not run on: then its call is scheduled on
    /// that actor, in order (``waitForScheduledDeliveries()`` waits for it).
    ///
    /// ```swift
    /// nonisolated extension Broadcaster {
    ///     func userLoggedOut() {
    ///         broadcast(to: LoginListener.self) { $0.userLoggedOut() }
    ///     }
    /// }
    /// ```
    ///
    /// To pass a value, use ``broadcast(to:with:sticky:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - sticky: Whether to keep this broadcast as the latest for
    ///     `listenerType`, replayed to listeners that register later with
    ///     `receivingSticky: true`: for state, not one-off events.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call; it may run on another actor.
    /// - Returns: The number of calls made or scheduled. Off a listener's
    ///   actor, a listener whose conformance has not been checked on it yet
    ///   counts as scheduled; if its actor finds none, the call does nothing.
    @discardableResult
    public func broadcast<P>(
        to listenerType: P.Type,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        guard sticky else {
            return send(
                to: P.self, onMainActor: false, from: isolation, calling: deliver,
                makingEscaping: { EscapingCalls(deliver) })
        }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: false, deliver), to: P.self, onMainActor: false, from: isolation,
            calling: deliver, escaping: EscapingCalls(deliver))
    }

    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType` and `payload`, in registration order.
    ///
    /// The same broadcast as ``broadcast(to:sticky:isolation:_:)``, with the
    /// value passed to `deliver` instead of captured by it: a broadcast whose
    /// listeners are all called where it runs then allocates nothing.
    ///
    /// ```swift
    /// nonisolated extension Broadcaster {
    ///     func postCreated(_ post: Post) {
    ///         broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    ///     }
    /// }
    /// ```
    ///
    /// Pass several values as a tuple: `with: (post, author)`, then
    /// `{ $0.postCreated($1.0, by: $1.1) }`.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - payload: The value each call receives.
    ///   - sticky: Whether to keep this broadcast, with its payload, as the
    ///     latest for `listenerType`.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call with the listener and `payload`.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func broadcast<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P, Payload) -> Void
    ) -> Int {
        guard sticky else {
            return send(
                to: P.self, onMainActor: false, from: isolation, calling: { deliver($0, payload) },
                makingEscaping: { EscapingCalls { deliver($0, payload) } })
        }
        let call: @Sendable (P) -> Void = { deliver($0, payload) }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: false, call), to: P.self, onMainActor: false, from: isolation,
            calling: call, escaping: EscapingCalls(call))
    }

    /// Calls `deliver` on the main actor with every live listener that
    /// conforms to `listenerType`, whatever actor each registered from.
    ///
    /// For protocols whose requirements are main-actor isolated, and events UI
    /// code must see on the main thread only; made elsewhere, the calls are
    /// scheduled on the main actor.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - sticky: Whether to keep this broadcast as the latest for
    ///     `listenerType` (see ``broadcast(to:sticky:isolation:_:)``).
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call, on the main actor.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func broadcastOnMainActor<P>(
        to listenerType: P.Type,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) -> Int {
        let call = MainActorCall.wrap(deliver)
        guard sticky else {
            return send(
                to: P.self, onMainActor: true, from: isolation, calling: call,
                makingEscaping: { EscapingCalls(call) })
        }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: true, call), to: P.self, onMainActor: true, from: isolation,
            calling: call, escaping: EscapingCalls(call))
    }

    /// Calls `deliver` on the main actor with every live listener that
    /// conforms to `listenerType` and `payload`, whatever actor each
    /// registered from: ``broadcastOnMainActor(to:sticky:isolation:_:)`` with
    /// the value passed as in ``broadcast(to:with:sticky:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - payload: The value each call receives.
    ///   - sticky: Whether to keep this broadcast, with its payload, as the
    ///     latest for `listenerType`.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call, on the main actor.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func broadcastOnMainActor<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P, Payload) -> Void
    ) -> Int {
        guard sticky else {
            return send(
                to: P.self, onMainActor: true, from: isolation,
                calling: { listener in MainActorCall.call({ deliver($0, payload) }, with: listener) },
                makingEscaping: { EscapingCalls(MainActorCall.wrap { deliver($0, payload) }) })
        }
        let call = MainActorCall.wrap { deliver($0, payload) }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: true, call), to: P.self, onMainActor: true, from: isolation,
            calling: call, escaping: EscapingCalls(call))
    }
}

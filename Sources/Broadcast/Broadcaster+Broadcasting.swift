extension Broadcaster {
    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType`, in registration order.
    ///
    /// Listeners with no actor are called here, on the calling thread, before
    /// this returns. A listener registered on an actor is called here too if
    /// the broadcast runs on that actor; otherwise its call is scheduled on
    /// that actor, behind the calls scheduled before it.
    /// ``waitForScheduledDeliveries()`` waits for scheduled calls.
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
    ///     `listenerType`, replacing the previous sticky one, so that listeners
    ///     that register later with `receivingSticky: true` receive it at
    ///     once. Use it for state (signed in, connectivity), not for one-off
    ///     events.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call. `@Sendable` because it may run on
    ///     another actor.
    /// - Returns: The number of calls made or scheduled. It is exact
    ///   wherever the runtime can check a conformance isolated to a
    ///   listener's actor: on the main thread (top-level code, run-loop
    ///   handlers) or in a task on that actor. Elsewhere (another thread, or a
    ///   main-queue block serviced off the main thread after `dispatchMain()`)
    ///   a listener registered on an actor whose conformance to
    ///   `listenerType` has not been checked there yet is counted as a
    ///   scheduled call; if its actor finds no conformance, the call does
    ///   nothing and later broadcasts count exactly. For an exact count of
    ///   the calls made, count them in `deliver` and await
    ///   ``waitForScheduledDeliveries()``.
    @discardableResult
    public func broadcast<P>(
        to listenerType: P.Type,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        guard sticky else { return send(to: P.self, onMainActor: false, from: isolation, calling: deliver) { deliver } }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: false, deliver), to: P.self, onMainActor: false, from: isolation,
            calling: deliver, escaping: deliver)
    }

    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType` and `payload`, in registration order.
    ///
    /// The same broadcast as ``broadcast(to:sticky:isolation:_:)``, with the
    /// value passed to `deliver` instead of captured by it: `deliver` then
    /// captures nothing, and a broadcast whose listeners are all called where
    /// it runs allocates nothing, whatever the payload. `payload` is copied
    /// into a closure only when a call is kept: scheduled on a listener's
    /// actor, or recorded as the sticky broadcast.
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
    ///     latest for `listenerType` (see ``broadcast(to:sticky:isolation:_:)``).
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call with the listener and `payload`.
    ///     `@Sendable` because it may run on another actor.
    /// - Returns: The number of calls made or scheduled, counted as by
    ///   ``broadcast(to:sticky:isolation:_:)``.
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
                makingEscaping: { { deliver($0, payload) } })
        }
        let call: @Sendable (P) -> Void = { deliver($0, payload) }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: false, call), to: P.self, onMainActor: false, from: isolation,
            calling: call, escaping: call)
    }

    /// Calls `deliver` on the main actor with every live listener that
    /// conforms to `listenerType`, whatever actor each registered from.
    ///
    /// Use it for protocols whose requirements are main-actor isolated
    /// (`@MainActor protocol KeyboardListener`), and for events that UI code
    /// must only see on the main thread. Made on the main actor, the calls run
    /// before this returns; made anywhere else, they are scheduled on the main
    /// actor.
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
        guard sticky else { return send(to: P.self, onMainActor: true, from: isolation, calling: call) { call } }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: true, call), to: P.self, onMainActor: true, from: isolation,
            calling: call, escaping: call)
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
                makingEscaping: { MainActorCall.wrap { deliver($0, payload) } })
        }
        let call = MainActorCall.wrap { deliver($0, payload) }
        return sendSticky(
            StickyBroadcast(for: P.self, onMainActor: true, call), to: P.self, onMainActor: true, from: isolation,
            calling: call, escaping: call)
    }
}

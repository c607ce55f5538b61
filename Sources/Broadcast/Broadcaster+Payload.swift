extension Broadcaster {
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
    @inlinable
    @inline(__always)
    @discardableResult
    public func broadcast<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P, Payload) -> Void
    ) -> Int {
        send(
            to: P.self, sticky: sticky, from: isolation, actorOverride: nil, calling: { deliver($0, payload) },
            keeping: { { deliver($0, payload) } })
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
    @inlinable
    @discardableResult
    public func broadcastOnMainActor<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P, Payload) -> Void
    ) -> Int {
        send(
            to: P.self, sticky: sticky, from: isolation, actorOverride: MainActor.shared,
            calling: { listener in
                // Safe for the reason given at `mainActorCall`: the delivery
                // path makes this call only where it found the main actor,
                // and `assumeIsolated` checks it.
                nonisolated(unsafe) let listener = listener
                MainActor.assumeIsolated { deliver(listener, payload) }
            },
            keeping: { Self.mainActorCall { deliver($0, payload) } })
    }

    /// Broadcasts like ``broadcast(to:with:sticky:isolation:_:)`` and returns
    /// once every call of this broadcast has run, including those scheduled
    /// on actors.
    ///
    /// If the waiting task is cancelled, returns at once with the calls made
    /// so far; the calls still scheduled are made later.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - payload: The value each call receives.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call with the listener and `payload`.
    /// - Returns: The number of calls made (so far, if cancelled).
    @discardableResult
    public func broadcastAndWait<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P, Payload) -> Void
    ) async -> Int {
        let calls = CallCount()
        let madeOrScheduled = send(
            to: P.self, sticky: false, from: isolation, actorOverride: nil,
            calling: { listener in
                calls.add()
                deliver(listener, payload)
            },
            keeping: {
                { listener in
                    calls.add()
                    deliver(listener, payload)
                }
            })
        return await waitForCalls(calls, madeOrScheduled: madeOrScheduled)
    }
}

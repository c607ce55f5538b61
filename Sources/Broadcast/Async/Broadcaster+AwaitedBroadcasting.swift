extension Broadcaster {
    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType` and awaits each call: for listener methods that are
    /// `async`.
    ///
    /// ```swift
    /// nonisolated extension Broadcaster {
    ///     nonisolated(nonsending) func userSignedOut() async {
    ///         await broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
    ///     }
    /// }
    /// ```
    ///
    /// `nonisolated(nonsending)` makes the typed method run where its caller
    /// runs, in every client configuration, so `isolation` defaults to the
    /// caller's: awaited from main-actor code, it reaches a listener whose
    /// conformance is isolated to the main actor.
    ///
    /// The label says what sets this form apart from
    /// ``broadcast(to:sticky:isolation:_:)``: it returns only once each
    /// listener's asynchronous call has returned. A distinct label, not an
    /// overload of `broadcast(to:)`, so that a synchronous broadcast written
    /// in an `async` function keeps meaning the synchronous form.
    ///
    /// - **Order**: with ``AwaitedDeliveryOrder/sequential`` (the default),
    ///   one call at a time, in registration order; with
    ///   ``AwaitedDeliveryOrder/concurrent``, each call in its own child task,
    ///   created in registration order.
    /// - **Isolation**: a listener registered on an actor is cast and called
    ///   on that actor, so a conformance isolated to it is never used
    ///   anywhere else. `deliver` is `nonisolated(nonsending)`: for a
    ///   listener with no actor it runs where the broadcast runs (the
    ///   caller's actor, or no actor) when sequential, and off any actor when
    ///   concurrent. The listener's own method then runs where its own
    ///   isolation says (a `nonisolated async` method: on the global
    ///   executor in Swift 6 mode, on the caller's actor with
    ///   `NonisolatedNonsendingByDefault`); the listener is passed `sending`,
    ///   so the closure may hand it to such a method in either mode.
    /// - **Snapshot**: the listeners are those registered when the broadcast
    ///   starts; one added during it is not called by it; one removed or
    ///   released before its turn is not called. No lock is held while a
    ///   listener runs, so listeners may add, remove and broadcast.
    /// - **Cancellation**: once the broadcasting task is cancelled, no
    ///   further call begins; calls already running see the cancellation.
    /// - **Errors**: if `deliver` throws, the broadcast throws its error.
    ///   Sequential: the first error stops the broadcast; later listeners are
    ///   not called. Concurrent: the first error thrown cancels the calls
    ///   still running and stops those not yet begun; the broadcast waits for
    ///   them, then throws it; errors thrown after it are discarded.
    ///   When `deliver` cannot throw, neither does the broadcast.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - order: Whether to await the calls one at a time or run them
    ///     concurrently.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call.
    /// - Returns: The number of calls made: listeners whose call began.
    /// - Throws: The error `deliver` threw (see above).
    @discardableResult
    public func broadcast<P, Failure: Error>(
        awaitingEach listenerType: P.Type,
        order: AwaitedDeliveryOrder = .sequential,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        var context = DeliveryContext(isolation: isolation)
        let members = members(of: P.self, in: &context)
        switch order.mode {
        case .sequential:
            return try await AwaitedDelivery.deliverSequentially(
                to: members, as: P.self, from: isolation, broadcaster: self, deliver)
        case .concurrent:
            return try await AwaitedDelivery.deliverConcurrently(
                to: members, as: P.self, broadcaster: self, deliver)
        }
    }

    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType` and `payload`, and awaits each call: the awaited form
    /// of ``broadcast(to:with:sticky:isolation:_:)``.
    ///
    /// ```swift
    /// nonisolated extension Broadcaster {
    ///     nonisolated(nonsending) func cartChanged(_ cart: Cart) async {
    ///         await broadcast(awaitingEach: CartListener.self, with: cart) { await $0.cartChanged($1) }
    ///     }
    /// }
    /// ```
    ///
    /// Order, isolation, snapshot, cancellation and errors are those of
    /// ``broadcast(awaitingEach:order:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - payload: The value each call receives.
    ///   - order: Whether to await the calls one at a time or run them
    ///     concurrently.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call with the listener and `payload`.
    /// - Returns: The number of calls made: listeners whose call began.
    /// - Throws: The error `deliver` threw.
    @discardableResult
    public func broadcast<P, Payload: Sendable, Failure: Error>(
        awaitingEach listenerType: P.Type,
        with payload: Payload,
        order: AwaitedDeliveryOrder = .sequential,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending P, Payload) async throws(Failure) -> Void
    ) async throws(Failure) -> Int {
        try await broadcast(awaitingEach: P.self, order: order, isolation: isolation) {
            (listener: sending P) async throws(Failure) in
            try await deliver(listener, payload)
        }
    }
}

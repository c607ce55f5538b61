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
    /// runs, so `isolation` defaults to the caller's. It returns once each
    /// listener's call has returned.
    ///
    /// - **Order**: with ``AwaitedDeliveryOrder/sequential`` (the default),
    ///   one call at a time, in registration order; with
    ///   ``AwaitedDeliveryOrder/concurrent``, each call in its own child task,
    ///   created in registration order.
    /// - **Isolation**: a listener registered on an actor is cast and called
    ///   on that actor. For a listener with no actor, `deliver` runs where
    ///   the broadcast runs when sequential, off any actor when concurrent;
    ///   the listener is passed `sending`, so its method may run where its
    ///   own isolation says.
    /// - **Snapshot**: the listeners registered when the broadcast starts,
    ///   minus those removed or released before their turn.
    /// - **Cancellation**: once the broadcasting task is cancelled, no
    ///   further call begins; calls already running see the cancellation.
    /// - **Errors**: the first error `deliver` throws stops the later calls
    ///   (concurrent: cancels those running, then is thrown once they end).
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
        try await AwaitedDelivery.deliver(
            to: P.self, watchedAs: P.self, order: order, from: isolation, broadcaster: self, deliver)
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

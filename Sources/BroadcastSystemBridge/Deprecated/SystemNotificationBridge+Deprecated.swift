import Broadcast

// The 0.1.0 way of registering a listener through the bridge, kept for one
// release: the bridge keeps the current state as sticky broadcasts, so the
// broadcaster's own `addListener(_:receivingSticky:)` does the same.

extension SystemNotificationBridge {
    /// Registers the `Sendable` `listener` with the bridge's broadcaster and,
    /// if asked, tells it the current state at once; the same as
    /// ``/Broadcast/Broadcaster/addListener(_:receivingSticky:isolation:fileID:line:)-4p25o``
    /// on ``broadcaster``.
    ///
    /// - Parameters:
    ///   - listener: The object to register.
    ///   - receivingCurrentState: Whether to tell it the current state now.
    ///   - isolation: The caller's isolation; leave the default.
    /// - Returns: `false` if the broadcaster refused the listener.
    @available(swift, introduced: 6)
    @available(*, deprecated, message: "Use broadcaster.addListener(_:receivingSticky:)")
    @discardableResult
    public func addListener<Listener: AnyObject & Sendable>(
        _ listener: Listener,
        receivingCurrentState: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool {
        broadcaster.addListener(listener, receivingSticky: receivingCurrentState, isolation: isolation)
    }

    /// Registers `listener`, which is not `Sendable`, from its actor's code,
    /// with the bridge's broadcaster and, if asked, tells it the current
    /// state at once.
    ///
    /// - Parameters:
    ///   - listener: The object to register.
    ///   - receivingCurrentState: Whether to tell it the current state now.
    ///   - isolation: The actor the listener is called on; leave the default.
    /// - Returns: `false` if the broadcaster refused the listener.
    @available(swift, introduced: 6)
    @available(*, deprecated, message: "Use broadcaster.addListener(_:receivingSticky:)")
    @discardableResult
    public func addListener<Listener: AnyObject>(
        _ listener: Listener,
        receivingCurrentState: Bool,
        isolation: isolated (any Actor) = #isolation
    ) -> Bool {
        broadcaster.addListener(listener, receivingSticky: receivingCurrentState, isolation: isolation)
    }

    /// Registers `listener` with the bridge's broadcaster and, if asked, tells
    /// it the current state at once, in the Swift 5 language mode.
    ///
    /// - Parameters:
    ///   - listener: The object to register.
    ///   - receivingCurrentState: Whether to tell it the current state now.
    ///   - isolation: The caller's isolation; leave the default.
    /// - Returns: `false` if the broadcaster refused the listener.
    @available(swift, obsoleted: 6)
    @available(*, deprecated, message: "Use broadcaster.addListener(_:receivingSticky:)")
    @discardableResult
    public func addListener(
        _ listener: AnyObject,
        receivingCurrentState: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool {
        broadcaster.add(
            listener, isSendable: false, receivingSticky: receivingCurrentState, isolation: isolation,
            fileID: #fileID, line: #line)
    }
}

import Broadcast

// The 0.1.0 way of registering a listener through the bridge, which 1.0
// deprecated and 2.0 removes: the bridge keeps the current state as sticky
// broadcasts, so the broadcaster's own `addListener(_:receivingSticky:)` does
// the same.

extension SystemNotificationBridge {
    /// The 0.1.0 way of registering a listener with the bridge's broadcaster.
    @available(*, unavailable, message: "use bridge.broadcaster.addListener(_:receivingSticky:)")
    @discardableResult
    public func addListener(
        _ listener: AnyObject,
        receivingCurrentState: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool {
        fatalError("unavailable")
    }
}

extension Broadcaster {
    /// Whether `listener` is registered with this broadcaster: true while
    /// ``addListener(_:receivingSticky:isolation:fileID:line:)-(AnyObjectSendable,_,_,_,_)`` holds it
    /// (until ``removeListener(_:)``) or while a started
    /// ``ListenerRegistration`` does, for whichever protocols.
    ///
    /// Like EventBus's `isRegistered`. It says nothing about a particular
    /// protocol: ask ``deliveryExplanation(for:to:isolation:)`` why a
    /// broadcast to one would or would not call the listener.
    ///
    /// ```swift
    /// let feed = FeedController(broadcaster: broadcaster)  // adds itself
    /// broadcaster.isRegistered(feed)                       // true
    /// broadcaster.removeListener(feed)
    /// broadcaster.isRegistered(feed)                       // false
    /// ```
    ///
    /// - Parameter listener: The object to look for (by identity, `===`).
    /// - Returns: Whether a live registration of `listener` exists; false for
    ///   an object registered only with another ``Broadcaster`` instance.
    public func isRegistered(_ listener: AnyObject) -> Bool {
        let id = ObjectIdentifier(listener)
        let entries = storage.entries(withID: id)
        return entries.contains { $0.liveObject === listener }
    }
}

extension Broadcaster {
    /// Calls `handler` with every `Event` posted until the returned token is
    /// released or cancelled.
    ///
    /// The handler is called where a listener registered from the same code
    /// would be: on the caller's actor (the main actor, from UI code), or on
    /// the posting thread if registered from non-isolated code.
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self) { event in
    ///     print("Hello, \(event.user.name)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with each event.
    /// - Returns: A token that keeps the handler registered.
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener(handler)
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil)
        register(entry, receivingSticky: receivingSticky, from: isolation)
        // The token owns the closure listener: releasing the token releases
        // it, which the weak table observes. Cancelling also unregisters at
        // once, for callers that cancel while still holding the token.
        return BroadcastToken(retaining: RetainedListener(listener)) { [weak self] in
            self?.unregister(entry)
        }
    }

    /// Calls `handler` with `owner` and every `Event` posted, until the token
    /// is released or cancelled; skips the call once `owner` is gone.
    ///
    /// `owner` is held weakly and passed to the handler, so the handler never
    /// needs to capture `self`. Once `owner` is deallocated the handler stays
    /// registered (and counted) until its token goes, but is not called;
    /// store the token in `owner` so that both go together:
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self, owner: self) { owner, event in
    ///     owner.show(event.user)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: A token that keeps the handler registered.
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        addHandler(for: Event.self, receivingSticky: receivingSticky) { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
    }
}

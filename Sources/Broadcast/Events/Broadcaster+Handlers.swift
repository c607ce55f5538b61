extension Broadcaster {
    /// Calls `handler` with every `Event` posted until the returned token is
    /// released or cancelled, on the caller's actor.
    ///
    /// The handler is called where a listener registered from the same code
    /// would be: on the main actor, from UI code; on the actor, from an
    /// actor's method.
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self) { event in
    ///     print("Hello, \(event.user.name)")
    /// }
    /// ```
    ///
    /// From code isolated to no actor, the handler would be called on every
    /// posting thread, so this form does not compile there in the Swift 6
    /// language mode ("'nil' is not compatible with expected argument type
    /// 'any Actor'"): register from an actor's code, or pass `isolation: nil`
    /// and a `@Sendable` handler.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: The actor the handler runs on; defaults to the
    ///     caller's, which must be an actor.
    ///   - handler: Called with each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    // Registered from code isolated to no actor? Register from an actor's code,
    // or pass `isolation: nil` and a @Sendable handler.
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        addClosure(ClosureListener(handler), isSendable: false, receivingSticky: receivingSticky, isolation: isolation)
    }

    /// Calls the `@Sendable` `handler` with every `Event` posted until the
    /// returned token is released or cancelled, wherever the post runs.
    ///
    /// The form for code isolated to no actor (a server, a command-line
    /// tool, a test):
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self, isolation: nil) { event in
    ///     log.record(event)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: `nil` to call `handler` wherever the post runs, or
    ///     the actor to record for it.
    ///   - handler: Called with each event, from any thread.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)?,
        handler: @escaping @Sendable (Event) -> Void
    ) -> BroadcastToken {
        addClosure(ClosureListener(handler), isSendable: true, receivingSticky: receivingSticky, isolation: isolation)
    }

    /// Calls `handler` with every `Event` posted until the returned token is
    /// released or cancelled, in the Swift 5 language mode.
    ///
    /// The handler runs on the caller's actor, or, registered from code
    /// isolated to no actor, on the posting thread. In the Swift 6 language
    /// mode the compiler checks that: a handler registered from code
    /// isolated to no actor is `@Sendable` and passes `isolation: nil`.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, obsoleted: 6)
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        addClosure(ClosureListener(handler), isSendable: false, receivingSticky: receivingSticky, isolation: isolation)
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
    /// The handler runs on the caller's actor, as with the form without
    /// `owner`; from code isolated to no actor, pass `isolation: nil`, a `Sendable`
    /// owner and a `@Sendable` handler.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: The actor the handler runs on; defaults to the
    ///     caller's, which must be an actor.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    // Registered from code isolated to no actor? Register from an actor's code,
    // or pass `isolation: nil`, a Sendable owner and a @Sendable handler.
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(listener, isSendable: false, receivingSticky: receivingSticky, isolation: isolation)
    }

    /// Calls the `@Sendable` `handler` with the `Sendable` `owner` and every
    /// `Event` posted, wherever the post runs, until the token is released
    /// or cancelled; skips the call once `owner` is gone.
    ///
    /// The form for code isolated to no actor.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: `nil` to call `handler` wherever the post runs, or
    ///     the actor to record for it.
    ///   - handler: Called with `owner` and each event, from any thread.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addHandler<Owner: AnyObject & Sendable, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)?,
        handler: @escaping @Sendable (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event> { @Sendable [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(listener, isSendable: true, receivingSticky: receivingSticky, isolation: isolation)
    }

    /// Calls `handler` with `owner` and every `Event` posted, until the token
    /// is released or cancelled, in the Swift 5 language mode; skips the
    /// call once `owner` is gone.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, obsoleted: 6)
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(listener, isSendable: false, receivingSticky: receivingSticky, isolation: isolation)
    }

    /// What every `addHandler` does; `isSendable` is what the caller's
    /// overload proved about the handler.
    func addClosure<Event>(
        _ listener: ClosureListener<Event>,
        isSendable: Bool,
        receivingSticky: Bool,
        isolation: isolated (any Actor)?
    ) -> BroadcastToken {
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil, isSendable: isSendable)
        register(entry, receivingSticky: receivingSticky, from: isolation)
        // The token owns the closure listener: releasing the token releases
        // it, which the weak table observes. Cancelling also unregisters at
        // once, for callers that cancel while still holding the token.
        return BroadcastToken(retaining: RetainedListener(listener)) { [weak self] in
            self?.unregister(entry)
        }
    }
}

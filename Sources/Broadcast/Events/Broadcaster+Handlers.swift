extension Broadcaster {
    /// Calls the `@Sendable` `handler` with every `Event` posted, where the
    /// post runs, until the returned token is released or cancelled.
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self) { event in
    ///     audit.record("signed in: \(event.name)")
    /// }
    /// ```
    ///
    /// The handler may run on any thread that posts, several at once, so it
    /// is `@Sendable`: what it captures is safe to share (an actor, state
    /// behind a lock). A handler that must run on an actor, such as one that
    /// updates a screen, names it:
    /// ``addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - consumingSticky: Whether each sticky `Event` the handler is called
    ///     with is taken when the call runs (see
    ///     ``addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)``).
    ///   - handler: Called with each event, from any thread.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        receivingSticky: Bool = false,
        consumingSticky: Bool = false,
        handler: @escaping @Sendable (Event) -> Void
    ) -> BroadcastToken {
        addClosure(
            ClosureListener(handler, consumingStickyFrom: consumingSticky ? self : nil), calledOn: nil,
            receivingSticky: receivingSticky)
    }

    /// Calls `handler` on `actor` with every `Event` posted, until the
    /// returned token is released or cancelled.
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self, calledOn: MainActor.shared) { [weak self] event in
    ///     self?.greeting = "Hello, \(event.name)"
    /// }
    /// ```
    ///
    /// A post made on `actor` calls the handler at once; one made anywhere
    /// else schedules the call there, behind the calls scheduled before it.
    /// The handler need not be `@Sendable`: it only ever runs on `actor`. The
    /// registering code runs on `actor`: from elsewhere, `await` the call.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - actor: The actor every call runs on.
    ///   - receivingSticky: Whether to call `handler` with the sticky
    ///     `Event`, if one is kept.
    ///   - consumingSticky: Whether each sticky `Event` the handler is called
    ///     with is taken when the call runs: the call runs only if that state
    ///     is still kept and no other consumer took it first, and clears it
    ///     in the same step. A screen that goes away before its scheduled
    ///     call runs takes nothing. Calls of non-sticky posts run as usual.
    ///   - handler: Called with each event, on `actor`.
    /// - Returns: A token that keeps the handler registered.
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        calledOn actor: isolated any Actor,
        receivingSticky: Bool = false,
        consumingSticky: Bool = false,
        handler: @escaping (Event) -> Void
    ) -> BroadcastToken {
        addClosure(
            ClosureListener(handler, consumingStickyFrom: consumingSticky ? self : nil), calledOn: actor,
            receivingSticky: receivingSticky)
    }

    /// Calls `handler` with every `Event` posted until the returned token is
    /// released or cancelled, in the Swift 5 language mode.
    ///
    /// The handler runs on the caller's actor, or, registered from code
    /// isolated to no actor, on the posting thread. In the Swift 6 language
    /// mode the compiler checks where a handler may run: this form is
    /// replaced by the `@Sendable` one and by
    /// ``addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)``.
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
        addClosure(ClosureListener(handler), calledOn: isolation, receivingSticky: receivingSticky)
    }

    /// Calls the `@Sendable` `handler` with the `Sendable` `owner` and every
    /// `Event` posted, where the post runs, until the token is released or
    /// cancelled; skips the call once `owner` is gone.
    ///
    /// `owner` is held weakly and passed to the handler, so the handler never
    /// needs to capture `self`. Once `owner` is deallocated the handler stays
    /// registered (and counted) until its token goes, but is not called;
    /// store the token in `owner` so that both go together.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - receivingSticky: Whether to call `handler` at once with the
    ///     sticky `Event`, if one is kept.
    ///   - consumingSticky: Whether each sticky `Event` the handler is called
    ///     with is taken when the call runs.
    ///   - handler: Called with `owner` and each event, from any thread.
    /// - Returns: A token that keeps the handler registered.
    @available(swift, introduced: 6)
    public func addHandler<Owner: AnyObject & Sendable, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        receivingSticky: Bool = false,
        consumingSticky: Bool = false,
        handler: @escaping @Sendable (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event>(
            { @Sendable [weak owner] event in
                guard let owner else { return }
                handler(owner, event)
            }, consumingStickyFrom: consumingSticky ? self : nil, owner: owner)
        return addClosure(listener, calledOn: nil, receivingSticky: receivingSticky)
    }

    /// Calls `handler` on `actor` with `owner` and every `Event` posted,
    /// until the token is released or cancelled; skips the call once `owner`
    /// is gone.
    ///
    /// `owner` is held weakly and passed to the handler, so the handler never
    /// needs to capture `self`; store the token in `owner` so that both go
    /// together:
    ///
    /// ```swift
    /// token = broadcaster.addHandler(for: UserSignedIn.self, owner: self, calledOn: MainActor.shared) {
    ///     screen, event in screen.greeting = "Hello, \(event.name)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - actor: The actor every call runs on.
    ///   - receivingSticky: Whether to call `handler` with the sticky
    ///     `Event`, if one is kept.
    ///   - consumingSticky: Whether each sticky `Event` the handler is called
    ///     with is taken when the call runs.
    ///   - handler: Called with `owner` and each event, on `actor`.
    /// - Returns: A token that keeps the handler registered.
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        calledOn actor: isolated any Actor,
        receivingSticky: Bool = false,
        consumingSticky: Bool = false,
        handler: @escaping (Owner, Event) -> Void
    ) -> BroadcastToken {
        let listener = ClosureListener<Event>(
            { [weak owner] event in
                guard let owner else { return }
                handler(owner, event)
            }, consumingStickyFrom: consumingSticky ? self : nil, owner: owner)
        return addClosure(listener, calledOn: actor, receivingSticky: receivingSticky)
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
        return addClosure(listener, calledOn: isolation, receivingSticky: receivingSticky)
    }

    /// Registers `listener` for every `addHandler` (and an
    /// ``ObservableStickyEvent``'s ``StickyChangeHandler``).
    ///
    /// `actor` is where the handler runs; nil for a `@Sendable` handler,
    /// which runs where the post runs.
    func addClosure(
        _ listener: EventHandler, calledOn actor: isolated (any Actor)?, receivingSticky: Bool
    ) -> BroadcastToken {
        // The token owns the closure listener and the entry holds it for the
        // token: cancelling or releasing the token unregisters the entry, and
        // the storage lets it go after unlocking.
        let entry = ListenerEntry(holding: listener, isolation: actor)
        register(entry, receivingSticky: receivingSticky, from: actor)
        return BroadcastToken(retaining: RetainedListener(listener)) { [weak self] in
            self?.unregister(entry)
        }
    }
}

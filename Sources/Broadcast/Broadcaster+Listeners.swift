extension Broadcaster {
    /// Registers a `Sendable` listener, called where each broadcast runs,
    /// for every broadcast to a protocol it conforms to; it may register
    /// from any code.
    ///
    /// The broadcaster holds the listener weakly: there is nothing to undo in
    /// `deinit`. Adding an object that is already registered changes nothing
    /// (it keeps its position in the delivery order).
    ///
    /// A `Sendable` listener (a `@MainActor` class, an `actor`, a `final
    /// class` whose state is behind a lock) is called where the broadcast
    /// runs whenever its conformance can be used there. A conformance
    /// isolated to an actor (`extension Screen: @MainActor
    /// PostCreationListener`) can be used only on that actor, so its calls go
    /// to the actor the listener registered from; registered from code
    /// isolated to no actor, a broadcast made elsewhere sends its call to
    /// the main actor, whose cast makes it (not counted until the main actor
    /// has cast it once: see <doc:DeliverySemantics>). To keep a listener
    /// on an actor whatever its conformance, name the actor:
    /// ``addListener(_:calledOn:receivingSticky:fileID:line:)-(AnyObject,_,_,_,_)``.
    ///
    /// A listener that is not `Sendable` does not compile here ("type 'Log'
    /// does not conform to the 'Sendable' protocol"): every broadcasting
    /// thread could call it at once. Make it `Sendable` (`@MainActor`, an
    /// `actor`, or state behind a lock), or name the actor that calls it
    /// with `calledOn:`.
    ///
    /// In a debug build, registering an object that nothing else keeps alive
    /// (`broadcaster.addListener(Downloader())`) is reported with its type
    /// and `fileID`:`line` (see ``BroadcastDiagnostic``): the argument is
    /// taken as `consuming`, so the call holds the caller's reference and
    /// sees whether the object outlives it. Release builds check nothing; the
    /// declaration is the same in both.
    ///
    /// - Parameters:
    ///   - listener: The object to call. A value type boxed as `AnyObject`
    ///     (a struct, or the Foundation objects that numbers and strings
    ///     bridge to) would be released at once and never called, so it is
    ///     refused.
    ///   - receivingSticky: Whether to call `listener` at once with the latest
    ///     sticky broadcast of each protocol it conforms to (see
    ///     ``broadcast(to:sticky:isolation:_:)``). Ignored if it was already
    ///     registered: it has seen those broadcasts.
    ///   - isolation: The actor that calls the listener where its conformance
    ///     holds only there; defaults to the caller's.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused (a one-time message names its type).
    @available(swift, introduced: 6)
    @discardableResult
    public func addListener(
        _ listener: consuming any AnyObject & Sendable,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: true, receivingSticky: receivingSticky, isolation: isolation,
            fileID: fileID, line: line)
    }

    /// Registers `listener` so that it is only ever called on `actor`, for
    /// every broadcast to a protocol it conforms to.
    ///
    /// The form that names where a listener runs: any listener, `Sendable`
    /// or not, and any actor, the main actor or an instance of your own
    /// (`broadcaster.addListener(self.cache, calledOn: self)` in an actor's
    /// method). A broadcast made on `actor` calls it at once; one made
    /// anywhere else schedules the call there, behind the calls scheduled
    /// before it (``waitForScheduledDeliveries()`` waits for them). The
    /// registering code runs on `actor` (from elsewhere, `await` the call);
    /// a `Sendable` listener may be registered from any code, through the
    /// other `calledOn:` form, which the compiler picks for it.
    ///
    /// Everything else is as in the `Sendable` form: held weakly, added once,
    /// reported in a debug build if nothing else keeps it alive.
    ///
    /// - Parameters:
    ///   - listener: The object to call. A value type boxed as `AnyObject`
    ///     is refused, as it would be released at once.
    ///   - actor: The actor every call runs on.
    ///   - receivingSticky: Whether to call `listener` with the latest
    ///     sticky broadcast of each protocol it conforms to. Ignored if it
    ///     was already registered.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused (a one-time message names its type).
    @discardableResult
    public func addListener(
        _ listener: consuming AnyObject,
        calledOn actor: isolated any Actor,
        receivingSticky: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: false, receivingSticky: receivingSticky, isolation: actor,
            fileID: fileID, line: line)
    }

    /// Registers the `Sendable` `listener` so that it is only ever called on
    /// `actor`, from any code.
    ///
    /// The same registration as
    /// ``addListener(_:calledOn:receivingSticky:fileID:line:)-(AnyObject,_,_,_,_)``: a `Sendable`
    /// listener may be handed to `actor` from anywhere, so the registering
    /// code need not run there.
    ///
    /// - Parameters:
    ///   - listener: The object to call.
    ///   - actor: The actor every call runs on.
    ///   - receivingSticky: Whether to call `listener` with the latest
    ///     sticky broadcast of each protocol it conforms to, on `actor`.
    ///     Ignored if it was already registered.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused.
    @discardableResult
    public func addListener(
        _ listener: consuming any AnyObject & Sendable,
        calledOn actor: any Actor,
        receivingSticky: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        // This form takes no `isolation:` (an extra parameter would make the
        // compiler prefer the other `calledOn:` form), so the replays are
        // planned as from code isolated to no actor: they go to `actor`.
        add(
            consume listener, isSendable: false, receivingSticky: receivingSticky, isolation: actor,
            registeringFrom: nil, fileID: fileID, line: line)
    }

    /// Registers `listener` for every broadcast to a protocol it conforms to,
    /// recording the caller's isolation, in the Swift 5 language mode.
    ///
    /// In the Swift 6 language mode, the compiler checks what may call a
    /// listener: this form is replaced by the `Sendable` one and by
    /// ``addListener(_:calledOn:receivingSticky:fileID:line:)-(AnyObject,_,_,_,_)``.
    ///
    /// - Parameters:
    ///   - listener: The object to call.
    ///   - receivingSticky: Whether to call `listener` at once with the latest
    ///     sticky broadcast of each protocol it conforms to.
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused.
    @available(swift, obsoleted: 6)
    @discardableResult
    public func addListener(
        _ listener: consuming AnyObject,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: false, receivingSticky: receivingSticky, isolation: isolation,
            fileID: fileID, line: line)
    }

    /// Unregisters a listener added with `addListener`.
    ///
    /// Removing an object that is not registered does nothing. Its
    /// ``ListenerRegistration``s, if any, are separate and keep listening
    /// until stopped.
    ///
    /// Once this returns, no broadcast that starts afterwards calls `listener`,
    /// nor does the rest of a broadcast in flight on this thread. A call that
    /// another thread has already begun may still finish.
    public func removeListener(_ listener: AnyObject) {
        unregister(EntryKey(objectID: ObjectIdentifier(listener), onlyProtocol: nil))
    }
}

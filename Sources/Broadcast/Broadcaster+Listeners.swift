extension Broadcaster {
    /// Registers a `Sendable` listener for every broadcast to a protocol it
    /// conforms to; it may register from any code.
    ///
    /// The broadcaster holds the listener weakly: there is nothing to undo in
    /// `deinit`. Adding an object that is already registered changes nothing
    /// (it keeps its position in the delivery order).
    ///
    /// A `Sendable` listener (a `@MainActor` class, an `actor`, a `final
    /// class` whose state is in a `Mutex`) is called wherever the broadcast
    /// runs, when its conformance can be used there; a conformance isolated
    /// to an actor (`extension Screen: @MainActor PostCreationListener`)
    /// makes the call go to the actor the listener registered from.
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
    public func addListener<Listener: AnyObject & Sendable>(
        _ listener: consuming Listener,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: true, receivingSticky: receivingSticky, isolation: isolation,
            fileID: fileID, line: line)
    }

    /// Registers a listener that is not `Sendable`, from the code of the
    /// actor it belongs to, for every broadcast to a protocol it conforms to.
    ///
    /// The listener is only ever called on the caller's actor: the main
    /// actor, from a `@MainActor` method or initializer or from top-level
    /// code; the actor itself, from an actor's method.
    ///
    /// Registering a listener that is not `Sendable` from code isolated to
    /// no actor does not compile in the Swift 6 language mode ("'nil' is not
    /// compatible with expected argument type 'any Actor'"): every
    /// broadcasting thread would call it. Make it `@MainActor`, make it
    /// `Sendable` (a `final class` whose state is in a `Mutex`), make it an
    /// `actor`, or register it from its actor's code.
    ///
    /// Everything else is as in the `Sendable` form: held weakly, added once,
    /// reported in a debug build if nothing else keeps it alive.
    ///
    /// - Parameters:
    ///   - listener: The object to call. A value type boxed as `AnyObject`
    ///     is refused, as it would be released at once.
    ///   - receivingSticky: Whether to call `listener` at once with the latest
    ///     sticky broadcast of each protocol it conforms to. Ignored if it
    ///     was already registered.
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's, which must be an actor.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused (a one-time message names its type).
    @available(swift, introduced: 6)
    @discardableResult
    // Not Sendable, and registered from code isolated to no actor? Make the listener @MainActor,
    // make it Sendable, make it an actor, or register it from its actor's code.
    public func addListener<Listener: AnyObject>(
        _ listener: consuming Listener,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        add(
            consume listener, isSendable: false, receivingSticky: receivingSticky, isolation: isolation,
            fileID: fileID, line: line)
    }

    /// Registers `listener` for every broadcast to a protocol it conforms to,
    /// recording the caller's isolation, in the Swift 5 language mode.
    ///
    /// In the Swift 6 language mode, the compiler checks what may call a
    /// listener: a `Sendable` listener registers from any code, any other
    /// from its actor's code.
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

    /// Unregisters a listener added with ``addListener(_:receivingSticky:isolation:fileID:line:)-4p25o``.
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

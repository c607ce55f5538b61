extension Broadcaster {
    /// Registers `listener` for every broadcast to a protocol it conforms to.
    ///
    /// The broadcaster holds the listener weakly: there is nothing to undo in
    /// `deinit`. Adding an object that is already registered changes nothing
    /// (it keeps its position in the delivery order).
    ///
    /// The isolation of the calling code is recorded: register a `@MainActor`
    /// listener from main-actor code and it is only ever called on the main
    /// actor.
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
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused (a one-time message names its type).
    @discardableResult
    public func addListener(
        _ listener: consuming AnyObject,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        #if DEBUG
            let check = UnretainedListenerCheck(copy listener, fileID: fileID, line: line)
        #endif
        let accepted = ListenerValidation.accepts(listener)
        if accepted {
            let site = RegistrationSite(fileID: fileID, line: line)
            let entry = ListenerEntry(
                object: copy listener, isolation: isolation, onlyProtocol: nil, registrationSite: site)
            register(entry, receivingSticky: receivingSticky, from: isolation)
        }
        // Lets go of the caller's reference here rather than after returning,
        // so that an object nothing else holds is released now, where the
        // debug check sees it (no lock is held: its deinit may use this
        // broadcaster).
        _ = consume listener
        #if DEBUG
            if accepted { check.reportIfReleased(to: self) }
        #endif
        return accepted
    }

    /// Unregisters a listener added with ``addListener(_:receivingSticky:isolation:fileID:line:)``.
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

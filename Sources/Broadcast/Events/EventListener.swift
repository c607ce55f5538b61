/// A listener for event values of one type.
///
/// Protocol broadcasts (``Broadcaster/broadcast(to:sticky:isolation:_:)``) suit
/// objects with several typed methods. When an event is better modelled as a
/// value (`struct UserSignedIn { let user: User }`), post the value with
/// ``Broadcaster/post(_:sticky:isolation:)`` and receive it in an object that conforms to
/// `EventListener`, in a closure (``Broadcaster/addHandler(for:receivingStickyEvent:isolation:handler:)``) or in
/// a `for await` loop (``Broadcaster/events(of:bufferingPolicy:receivingStickyEvent:)``).
/// All three are listeners in the same table, so order, threads, actors and
/// re-entrancy follow the same rules.
public protocol EventListener<Event>: AnyObject {
    /// The type of value this listener receives.
    associatedtype Event: Sendable

    /// Called once for every event posted while the listener is registered.
    func receive(_ event: Event)
}

extension Broadcaster {
    /// Delivers `event` to every listener of `Event` values: objects conforming
    /// to ``EventListener``, closure handlers and event streams, in
    /// registration order.
    ///
    /// - Parameters:
    ///   - event: The value to deliver.
    ///   - sticky: Whether to keep `event` as the latest `Event`, so that a
    ///     handler or listener registering later can ask to receive it at once.
    ///   - isolation: Where the post runs; leave the default.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func post<Event: Sendable>(
        _ event: Event,
        sticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        let deliver: @Sendable (any EventListener<Event>) -> Void = { $0.receive(event) }
        guard sticky else {
            return send(
                to: (any EventListener<Event>).self, sticky: false, from: isolation, actorOverride: nil, deliver)
        }
        // `send`'s sticky path, keeping the value too; not an argument of
        // `send`, which every broadcast takes (it cost 12 instructions each).
        var (members, place) = snapshot(
            of: (any EventListener<Event>).self, recordingSticky: deliver, event: event, actorOverride: nil,
            from: isolation)
        return dispatch(
            to: members, as: (any EventListener<Event>).self, in: &place, actorOverride: nil, deliver)
    }

    /// Posts like ``post(_:sticky:isolation:)`` and returns once every call,
    /// including those scheduled on actors, has run.
    ///
    /// If the waiting task is cancelled, returns at once with the calls made
    /// so far; the calls still scheduled are made later.
    ///
    /// - Returns: The number of calls made (so far, if cancelled).
    @discardableResult
    public func postAndWait<Event: Sendable>(
        _ event: Event,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        await broadcastAndWait(to: (any EventListener<Event>).self) { $0.receive(event) }
    }

    /// Keeps `event` as the sticky `Event` without delivering it now, so that
    /// handlers, listeners and streams registering later can ask for it.
    public func setStickyEvent<Event: Sendable>(_ event: Event) {
        let sticky = StickyBroadcast(for: (any EventListener<Event>).self, actorOverride: nil, event: event) {
            $0.receive(event)
        }
        storage.withLock { $0.setStickyBroadcast(sticky) }
    }

    /// Forgets the sticky `Event`, if any.
    public func clearStickyEvent<Event: Sendable>(of eventType: Event.Type) {
        clearStickyBroadcast(for: (any EventListener<Event>).self)
    }
}

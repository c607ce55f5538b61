/// A listener for event values of one type.
///
/// Protocol broadcasts (``Broadcaster/broadcast(to:sticky:isolation:_:)``) suit
/// objects with several typed methods. When an event is better modelled as a
/// value (`struct UserSignedIn { let user: User }`), post the value with
/// ``Broadcaster/post(_:sticky:isolation:)`` and receive it in an object that conforms to
/// `EventListener`, in a closure (``Broadcaster/addHandler(for:receivingSticky:isolation:handler:)``) or in
/// a `for await` loop (``Broadcaster/events(of:bufferingPolicy:receivingSticky:)``).
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
    /// `post` and ``post(awaitingEach:order:isolation:)`` reach disjoint sets:
    /// this one calls `EventListener` objects, ``addHandler(for:receivingSticky:isolation:handler:)``
    /// closures and ``events(of:bufferingPolicy:receivingSticky:)`` streams;
    /// the awaited one calls ``addAwaitedHandler(for:isolation:handler:)``
    /// closures only.
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
                to: (any EventListener<Event>).self, sticky: false, from: isolation, actorOverride: nil, deliver,
                completion: nil)
        }
        // `send`'s sticky path, keeping the value too; not an argument of
        // `send`, which every broadcast takes (it cost 12 instructions each).
        var (members, place) = snapshot(
            of: (any EventListener<Event>).self, recordingSticky: deliver, event: event, actorOverride: nil,
            from: isolation)
        return dispatch(
            to: members, as: (any EventListener<Event>).self, in: &place, actorOverride: nil, deliver, completion: nil)
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
    public func clearStickyEvent<Event: Sendable>(for eventType: Event.Type) {
        clearStickyBroadcast(for: (any EventListener<Event>).self)
    }
}

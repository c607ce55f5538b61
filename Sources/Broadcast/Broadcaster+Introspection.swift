extension Broadcaster {
    /// The live listeners that conform to `listenerType` and that a broadcast
    /// made here would call here, in registration order.
    ///
    /// The same decision as a broadcast's: a listener bound to an actor is
    /// included only on that actor (anywhere else a broadcast schedules its
    /// call); a `Sendable` one wherever its conformance holds.
    public func listeners<P>(of listenerType: P.Type, isolation: isolated (any Actor)? = #isolation) -> [P] {
        var context = DeliveryContext(isolation: isolation)
        var answers = ActorAnswers()
        var listeners: [P] = []
        for entry in members(of: P.self, in: &context) {
            guard let object = entry.liveObject else { continue }
            _ = Routing.route(object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers) {
                listeners.append($0)
            }
        }
        return listeners
    }

    /// The number of live listeners a broadcast to `listenerType` would call
    /// or schedule a call for.
    ///
    /// Listener objects only: an event's closure handlers and streams are
    /// counted, with its ``EventListener`` objects, by
    /// ``listenerCount(for:isolation:)``.
    public func listenerCount<P>(of listenerType: P.Type, isolation: isolated (any Actor)? = #isolation) -> Int {
        var context = DeliveryContext(isolation: isolation)
        var answers = ActorAnswers()
        var count = 0
        // A closure handler is no listener of a protocol, though an event's
        // index lists it: one bound to an actor would route as scheduled.
        for entry in members(of: P.self, in: &context) where !entry.isHandler {
            guard let object = entry.liveObject else { continue }
            let route = Routing.route(
                object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
            if route.isCounted { count += 1 }
        }
        return count
    }

    /// The number of live listeners of `Event` values that a post made here
    /// would call or schedule a call for: closure handlers, ``events(of:bufferingPolicy:receivingSticky:)``
    /// streams and ``EventListener`` objects.
    ///
    /// ```swift
    /// let token = broadcaster.addHandler(for: UserSignedIn.self) { _ in }
    /// broadcaster.listenerCount(for: UserSignedIn.self)  // 1
    /// token.cancel()
    /// broadcaster.listenerCount(for: UserSignedIn.self)  // 0
    /// ```
    ///
    /// A handler counts until its token is cancelled or released, or its
    /// registration stops; one registered with an `owner` counts until then
    /// too, even once the owner is gone (it is still called, and skips the
    /// call). A stream counts until it ends: its consuming task is cancelled,
    /// or the stream or the broadcaster is released. An ``EventListener``
    /// object counts while it lives and is registered, where a post would
    /// call it or schedule its call, as ``listenerCount(of:isolation:)``
    /// decides. Awaited handlers
    /// (``addAwaitedHandler(for:handler:)``) are not counted: a post does not
    /// reach them.
    ///
    /// - Parameters:
    ///   - eventType: The event values the listeners receive.
    ///   - isolation: Where the post would run; leave the default.
    /// - Returns: How many calls a post of an `Event` made here now would
    ///   make or schedule.
    public func listenerCount<Event: Sendable>(
        for eventType: Event.Type, isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        var context = DeliveryContext(isolation: isolation)
        var answers = ActorAnswers()
        var count = 0
        for entry in members(of: EventKey<Event>.self, in: &context) {
            guard let object = entry.liveObject else { continue }
            // The event's index lists only its own handlers (their post key
            // is the index's), and a post calls each where it runs or
            // schedules the call on the handler's actor: every one counts.
            if entry.isHandler {
                count += 1
                continue
            }
            let route = Routing.route(
                object, of: entry, as: EventKey<Event>.self, onMainActor: false, in: &context, answers: &answers,
                calling: { _ in })
            if route.isCounted { count += 1 }
        }
        return count
    }

    /// The number of live registrations, whatever their listeners conform to.
    ///
    /// Closure handlers and event streams count; an object both added and
    /// registered through a ``ListenerRegistration`` counts once for each.
    public var registrationCount: Int {
        storage.registeredEntries().count { $0.liveObject != nil }
    }
}

extension Broadcaster: CustomDebugStringConvertible {
    /// The live listeners' types in registration order, with the actor each is
    /// called on, for example
    /// `Broadcaster(2 listeners: FeedController, Screen @MainActor)`.
    public var debugDescription: String {
        let entries = storage.registeredEntries()
        let names = entries.compactMap { entry -> String? in
            guard let object = entry.liveObject else { return nil }
            var name = String(describing: type(of: object))
            if let box = entry.isolationBox {
                name += box.isMainActor ? " @MainActor" : " @\(type(of: box.actor))"
            }
            if entry.onlyProtocol != nil { name += " (one protocol)" }
            return name
        }
        let noun = names.count == 1 ? "listener" : "listeners"
        return "Broadcaster(\(names.count) \(noun)\(names.isEmpty ? "" : ": ")\(names.joined(separator: ", ")))"
    }
}

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
    public func listenerCount<P>(of listenerType: P.Type, isolation: isolated (any Actor)? = #isolation) -> Int {
        var context = DeliveryContext(isolation: isolation)
        var answers = ActorAnswers()
        var count = 0
        // Routed as a broadcast routes them: an index taken in elsewhere may
        // list a listener that a cast here proves not to conform.
        for entry in members(of: P.self, in: &context) {
            guard let object = entry.liveObject else { continue }
            let route = Routing.route(
                object, of: entry, as: P.self, onMainActor: false, in: &context, answers: &answers, calling: { _ in })
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

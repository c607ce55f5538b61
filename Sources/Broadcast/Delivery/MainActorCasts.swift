import Synchronization

/// Listeners registered with no actor whose cast failed where they
/// registered, for protocols broadcast to before, waiting for the main
/// actor's cast; at most ``limit`` at once, so that a program whose main
/// actor never runs keeps no more.
struct MainActorCasts: ~Copyable, Sendable {
    static let limit = 1_000

    struct Request: Sendable {
        let entry: ListenerEntry
        let protocols: [Any.Type]
    }

    private let waiting = Mutex<[Request]>([])

    /// Keeps `request`, if there is room; true if the caller must start the
    /// main actor's cast (none was waiting).
    func keep(_ request: Request) -> Bool {
        waiting.withLock { waiting in
            guard waiting.count < Self.limit else { return false }
            waiting.append(request)
            return waiting.count == 1
        }
    }

    /// Every request kept, which the caller carries out.
    func takeAll() -> [Request] {
        waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
    }
}

/// The main actor's cast of a user's listener registered with no actor,
/// off the main actor, for each protocol broadcast to before whose cast
/// failed there and that no delivery proved it is not.
///
/// A failed cast off the main actor cannot tell a conformance isolated to
/// it from none; the main actor casts the listener as soon as it runs,
/// before any job enqueued on it after the registration. A `P` there is
/// one only there: broadcasts made elsewhere schedule its calls there,
/// counted (``Routing``). Not a `P` there: recorded, so that indexes drop
/// it. A registration made where the main actor's casts are definitive
/// settles the listener at once (``settle(_:for:knowing:in:)``).
extension Broadcaster {
    func askMainActorToCast(_ entry: ListenerEntry, for plan: RegistrationPlan) {
        guard let object = entry.liveObject else { return }
        let unknown = plan.protocolsToSettle.filter { protocolType in
            entry.listens(to: ObjectIdentifier(protocolType))
                && !plan.known.contains(type(of: object), ObjectIdentifier(protocolType), on: MainActor.shared)
                && !Self.conforms(object, as: protocolType)
        }
        guard !unknown.isEmpty, mainActorCasts.keep(MainActorCasts.Request(entry: entry, protocols: unknown)) else {
            return
        }
        // Weak: a broadcaster released before the main actor runs needs no cast.
        Task { @MainActor [weak self] in self?.castListenersWithNoActor() }
    }

    @MainActor
    private func castListenersWithNoActor() {
        for request in mainActorCasts.takeAll() {
            for protocolType in request.protocols { castOnMainActor(request.entry, as: protocolType) }
        }
    }

    private static func conforms<P>(_ object: AnyObject, as _: P.Type) -> Bool {
        Conformance.conforms(object, to: P.self)
    }

    @MainActor
    private func castOnMainActor<P>(_ entry: ListenerEntry, as _: P.Type) {
        // The listener is held only for the cast: released by its owner meanwhile, it goes at once.
        let answer: (type: AnyObject.Type, conforms: Bool)? = {
            guard let object = entry.liveObject else { return nil }
            return (Swift.type(of: object), Conformance.conforms(object, to: P.self))
        }()
        guard let (type, conforms) = answer else { return }
        if conforms {
            entry.noteConformanceIsolatedToMainActor(as: P.self)
        } else {
            let learned = LearnedNonconformance(type: type, actor: MainActor.shared)
            storage.settle(entry, proving: [(learned, ObjectIdentifier(P.self))])
        }
    }
}

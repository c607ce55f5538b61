import Synchronization

/// Listeners registered with no actor whose cast failed where they
/// registered, for protocols broadcast to before, waiting for the main
/// actor's cast; at most ``limit`` at once, so that a program whose main
/// actor never runs keeps no more.
///
/// The cast holds each listener while it casts it, so
/// ``Broadcaster/waitForScheduledDeliveries()`` waits for the casts of the
/// requests kept before it, as it waits for scheduled calls: counted here,
/// in the order the main actor casts them.
struct MainActorCasts: ~Copyable, Sendable {
    static let limit = 1_000

    struct Request: Sendable {
        let entry: ListenerEntry
        let protocols: [Any.Type]
    }

    private struct State {
        var waiting: [Request] = []
        /// Requests kept so far, and cast so far (a prefix of them: the
        /// main actor casts them in the order they were kept).
        var kept = 0
        var cast = 0
        /// Waits that end once `cast` reaches their count.
        var waits: [(count: Int, open: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    /// Keeps `request`, if there is room; true if the caller must start the
    /// main actor's cast (none was waiting).
    func keep(_ request: Request) -> Bool {
        state.withLock { state in
            guard state.waiting.count < Self.limit else { return false }
            state.waiting.append(request)
            state.kept += 1
            return state.waiting.count == 1
        }
    }

    /// Every request kept, which the caller carries out, then reports done
    /// (``noteCast(_:)``).
    func takeAll() -> [Request] {
        state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
    }

    /// Records `count` more requests cast, and ends the waits they complete,
    /// with no lock held.
    func noteCast(_ count: Int) {
        let opened = state.withLock { state in
            state.cast += count
            let cast = state.cast
            defer { state.waits.removeAll { $0.count <= cast } }
            return state.waits.filter { $0.count <= cast }.map(\.open)
        }
        for open in opened { open() }
    }

    /// The number of requests kept so far, if some are not cast yet; nil if
    /// every one is.
    var requestsToWaitFor: Int? {
        state.withLock { $0.cast < $0.kept ? $0.kept : nil }
    }

    /// Calls `open` once the first `count` requests kept are cast: at once,
    /// with no lock held, if they are.
    func whenCast(upTo count: Int, _ open: @escaping @Sendable () -> Void) {
        let castAlready = state.withLock { state in
            guard state.cast < count else { return true }
            state.waits.append((count, open))
            return false
        }
        if castAlready { open() }
    }

    #if DEBUG
        private let seam = Mutex<(@Sendable () -> Void)?>(nil)

        /// Debug builds, for tests: `seam` is called on the main actor while
        /// a cast holds the listener it loaded (nil: none).
        func callWhileHoldingAListener(_ seam: (@Sendable () -> Void)?) {
            let replaced = self.seam.withLock { installed in
                defer { installed = seam }
                return installed
            }
            _ = consume replaced
        }

        func passSeam() {
            seam.withLock { $0 }?()
        }
    #endif
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
        let requests = mainActorCasts.takeAll()
        for request in requests {
            for protocolType in request.protocols { castOnMainActor(request.entry, as: protocolType) }
        }
        mainActorCasts.noteCast(requests.count)
    }

    private static func conforms<P>(_ object: AnyObject, as _: P.Type) -> Bool {
        Conformance.conforms(object, to: P.self)
    }

    @MainActor
    private func castOnMainActor<P>(_ entry: ListenerEntry, as _: P.Type) {
        // The listener is held only for the cast: released by its owner meanwhile, it goes here, as the
        // cast ends (``MainActorCasts`` lets the barrier wait for that).
        let answer: (type: AnyObject.Type, conforms: Bool)? = {
            guard let object = entry.liveObject else { return nil }
            #if DEBUG
                mainActorCasts.passSeam()
            #endif
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

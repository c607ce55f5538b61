import Synchronization

/// One declared registration: a listener, the protocol it listens to, and a
/// ``Lifespan``; it can start and stop listening any number of times.
///
/// The idea of BTIKit's `BTINotificationInfo`: the parameters of an
/// add/remove pair are stated once, and `start()` / `stop()` replace the pair.
/// The registration holds its listener weakly, so it never keeps it alive and
/// nothing needs undoing in `deinit`; releasing the registration stops it.
///
/// A registration listens to its one protocol only: the listener receives no
/// other protocol's broadcasts through it. An object that is also registered
/// with ``Broadcaster/addListener(_:receivingSticky:isolation:fileID:line:)``
/// still receives each broadcast once.
public final class ListenerRegistration: Sendable {
    /// When this registration is meant to listen.
    public let lifespan: Lifespan

    private let broadcaster: Broadcaster
    private let protocolType: Any.Type
    private let receivesStickyBroadcasts: Bool
    private let target: RegistrationTarget
    /// The entry while listening; nil while stopped.
    private let activeEntry = Mutex<ListenerEntry?>(nil)

    /// Declares that `listener` listens to broadcasts to `listenerType` during
    /// `lifespan`, without starting.
    ///
    /// It does not listen until ``start(isolation:)``.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen, for ``ListenerRegistrations``.
    ///   - broadcaster: Where to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    public init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingSticky: Bool = false
    ) {
        self.lifespan = lifespan
        self.broadcaster = broadcaster
        self.protocolType = P.self
        self.receivesStickyBroadcasts = receivingSticky
        self.target = .weak(WeakListener(listener))
    }

    /// A registration for a closure handler, which the registration keeps
    /// alive; see `ListenerRegistrations.addHandler(for:lifespan:receivingSticky:isolation:handler:)`.
    init(
        retaining listener: RetainedListener, object: AnyObject, protocolType: Any.Type, lifespan: Lifespan,
        on broadcaster: Broadcaster, receivingSticky: Bool
    ) {
        self.lifespan = lifespan
        self.broadcaster = broadcaster
        self.protocolType = protocolType
        self.receivesStickyBroadcasts = receivingSticky
        self.target = .retained(listener, WeakListener(object))
    }

    /// Whether the registration is listening.
    ///
    /// A registration whose listener was released stops counting as
    /// listening.
    public var isListening: Bool {
        activeEntry.withLock { $0 != nil } && target.weak.object != nil
    }

    /// Starts listening, unless already listening or the listener is gone.
    ///
    /// The caller's isolation is recorded, as with `addListener`.
    public func start(isolation: isolated (any Actor)? = #isolation) {
        guard let listener = target.weak.object else { return }
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: protocolType)
        let shouldStart = activeEntry.withLock { active in
            guard active == nil else { return false }
            active = entry
            return true
        }
        guard shouldStart else { return }
        broadcaster.register(entry, receivingSticky: receivesStickyBroadcasts, from: isolation)
    }

    /// Stops listening, if listening.
    ///
    /// After it returns, no broadcast that starts afterwards reaches the
    /// listener through this registration.
    public func stop() {
        let entry = activeEntry.withLock { active in
            defer { active = nil }
            return active
        }
        guard let entry else { return }
        broadcaster.unregister(entry)
    }

    deinit {
        stop()
    }
}

/// The listener of a registration: held weakly, or, for a closure handler the
/// registration owns, strongly as well.
private enum RegistrationTarget: Sendable {
    case weak(WeakListener)
    case retained(RetainedListener, WeakListener)

    var weak: WeakListener {
        switch self {
        case .weak(let weak), .retained(_, let weak): weak
        }
    }
}

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
/// with `addListener` still receives each broadcast once.
public final class ListenerRegistration: Sendable {
    /// When this registration is meant to listen.
    public let lifespan: Lifespan

    private let broadcaster: Broadcaster
    private let protocolType: Any.Type
    private let receivesStickyBroadcasts: Bool
    private let target: RegistrationTarget
    /// Whether the registering call proved the listener `Sendable`.
    private let isSendable: Bool
    /// Whether the listener is called on ``boundActor``, whatever code
    /// starts it.
    private let isBound: Bool
    /// The actor named by `calledOn:`; weak, so that an actor holding its
    /// registrations is not kept alive by them.
    private weak let boundActor: (any Actor)?
    /// The entry while listening; nil while stopped.
    private let activeEntry = Mutex<ListenerEntry?>(nil)

    /// Declares that the `Sendable` `listener` listens to broadcasts to
    /// `listenerType` during `lifespan`, without starting.
    ///
    /// It does not listen until ``start(isolation:)``, which may be called
    /// from any code; the listener is then called as if registered with
    /// `addListener` by the code that starts it.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen, for ``ListenerRegistrations``.
    ///   - broadcaster: Where to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    @available(swift, introduced: 6)
    public convenience init<P>(
        _ listener: any AnyObject & Sendable,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingSticky: Bool = false
    ) {
        self.init(
            target: .weak(WeakListener(listener)), protocolType: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky, isSendable: true, boundTo: nil)
    }

    /// Declares that `listener` listens to broadcasts to `listenerType`
    /// during `lifespan`, only ever called on `actor`, without starting.
    ///
    /// Any listener, `Sendable` or not: its calls run on `actor` whatever
    /// code calls ``start(isolation:)`` (and the registration does not start
    /// once `actor` is gone). The declaring code runs on `actor` (from
    /// elsewhere, `await` the call); a `Sendable` listener may be declared
    /// from any code, through the other `calledOn:` form.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen, for ``ListenerRegistrations``.
    ///   - broadcaster: Where to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    public convenience init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        calledOn actor: isolated any Actor,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingSticky: Bool = false
    ) {
        self.init(
            target: .weak(WeakListener(listener)), protocolType: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky, isSendable: false, boundTo: actor)
    }

    /// Declares that the `Sendable` `listener` listens to broadcasts to
    /// `listenerType` during `lifespan`, only ever called on `actor`, without
    /// starting; from any code.
    ///
    /// The same registration as
    /// ``init(_:for:calledOn:lifespan:on:receivingSticky:)-(AnyObject,_,_,_,_,_)``:
    /// a `Sendable` listener may be handed to `actor` from anywhere.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen, for ``ListenerRegistrations``.
    ///   - broadcaster: Where to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    public convenience init<P>(
        _ listener: any AnyObject & Sendable,
        for listenerType: P.Type,
        calledOn actor: any Actor,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingSticky: Bool = false
    ) {
        self.init(
            target: .weak(WeakListener(listener)), protocolType: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky, isSendable: false, boundTo: actor)
    }

    /// Declares that `listener` listens to broadcasts to `listenerType` during
    /// `lifespan`, without starting, in the Swift 5 language mode.
    ///
    /// It does not listen until ``start(isolation:)``, which records its
    /// caller's isolation.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen, for ``ListenerRegistrations``.
    ///   - broadcaster: Where to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    @available(swift, obsoleted: 6)
    public convenience init<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        on broadcaster: Broadcaster = .shared,
        receivingSticky: Bool = false
    ) {
        self.init(legacy: listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingSticky)
    }

    /// A registration that records each start's caller, as in the Swift 5
    /// language mode.
    convenience init<P>(
        legacy listener: AnyObject, for listenerType: P.Type, lifespan: Lifespan, on broadcaster: Broadcaster,
        receivingSticky: Bool
    ) {
        self.init(
            target: .weak(WeakListener(listener)), protocolType: P.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky, isSendable: false, boundTo: nil)
    }

    /// A registration for a closure handler, which the registration keeps
    /// alive; see `ListenerRegistrations.addHandler(for:lifespan:receivingSticky:isolation:handler:)`.
    convenience init(
        retaining listener: RetainedListener, object: AnyObject, protocolType: Any.Type, lifespan: Lifespan,
        on broadcaster: Broadcaster, receivingSticky: Bool, isSendable: Bool, boundTo actor: (any Actor)?
    ) {
        self.init(
            target: .retained(listener, WeakListener(object)), protocolType: protocolType, lifespan: lifespan,
            on: broadcaster, receivingSticky: receivingSticky, isSendable: isSendable, boundTo: actor)
    }

    /// `actor`, if any, is where every call runs; nil records each start's
    /// caller instead.
    private init(
        target: RegistrationTarget, protocolType: Any.Type, lifespan: Lifespan, on broadcaster: Broadcaster,
        receivingSticky: Bool, isSendable: Bool, boundTo actor: (any Actor)?
    ) {
        self.lifespan = lifespan
        self.broadcaster = broadcaster
        self.protocolType = protocolType
        self.receivesStickyBroadcasts = receivingSticky
        self.target = target
        self.isSendable = isSendable
        self.isBound = actor != nil
        self.boundActor = actor
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
    /// May be called from any code. A listener declared with `calledOn:` is
    /// only ever called on that actor (and the registration does not start
    /// once the actor is gone); any other is called as if registered with
    /// `addListener` from the caller's code.
    public func start(isolation: isolated (any Actor)? = #isolation) {
        guard let listener = target.weak.object else { return }
        let listenerIsolation: (any Actor)?
        if isBound {
            guard let boundActor else { return }
            listenerIsolation = boundActor
        } else {
            listenerIsolation = isolation
        }
        let entry = ListenerEntry(
            object: listener, isolation: listenerIsolation, onlyProtocol: protocolType, isSendable: isSendable,
            conformanceMayBeIsolated: true)
        let shouldStart = activeEntry.withLock { active in
            guard active == nil else { return false }
            active = entry
            return true
        }
        guard shouldStart else { return }
        broadcaster.register(entry, receivingSticky: receivesStickyBroadcasts, from: isolation)
        // A `stop()` that ran between the claim above and the registration
        // found nothing to unregister: undo the registration it missed.
        if activeEntry.withLock({ $0 !== entry }) { broadcaster.unregister(entry) }
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

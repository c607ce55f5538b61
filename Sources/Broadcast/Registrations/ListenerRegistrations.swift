import Synchronization

/// All of one object's registrations, declared in one place and started or
/// stopped by ``Lifespan`` with one call each.
///
/// ```swift
/// final class ComposeViewController: UIViewController, KeyboardListener, @MainActor PostCreationListener {
///     private let registrations = ListenerRegistrations()
///     private var titles: [String] = []
///
///     init() {
///         super.init(nibName: nil, bundle: nil)
///         registrations.add(self, for: PostCreationListener.self, lifespan: .lifetime) // starts now
///         registrations.add(self, for: KeyboardListener.self, lifespan: .visible)
///     }
///
///     required init?(coder: NSCoder) { fatalError("not used") }
///
///     override func viewWillAppear(_ animated: Bool) {
///         super.viewWillAppear(animated)
///         registrations.start(.visible)
///     }
///
///     override func viewDidDisappear(_ animated: Bool) {
///         super.viewDidDisappear(animated)
///         registrations.stop(.visible)
///     }
///
///     @MainActor func postCreated(_ post: Post) { titles.append(post.title) }  // on the main actor
/// }
/// ```
///
/// Releasing the `ListenerRegistrations` stops every registration in it.
public final class ListenerRegistrations: Sendable {
    private let broadcaster: Broadcaster
    private let registrations = Mutex<[ListenerRegistration]>([])

    /// Creates an empty set of registrations on `broadcaster`.
    public init(broadcaster: Broadcaster = .shared) {
        self.broadcaster = broadcaster
    }

    /// Declares that `listener` listens to `listenerType` during `lifespan`.
    ///
    /// A ``Lifespan/lifetime`` registration (the default) starts at once.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    ///   - isolation: Where a ``Lifespan/lifetime`` registration starts;
    ///     leave the default.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func add<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingSticky)
        add(registration)
        return registration
    }

    /// Declares a closure handler for `Event` values during `lifespan`.
    ///
    /// The registrations keep the closure alive. A ``Lifespan/lifetime``
    /// handler (the default) starts at once.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with each event.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) -> Void
    ) -> ListenerRegistration {
        let listener = ClosureListener(handler)
        let registration = ListenerRegistration(
            retaining: RetainedListener(listener), object: listener,
            protocolType: (any EventListener<Event>).self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky)
        add(registration)
        return registration
    }

    /// Declares a closure handler for `Event` values during `lifespan` that
    /// receives `owner` too, and is skipped once `owner` is gone, as
    /// ``Broadcaster/addHandler(for:owner:receivingSticky:isolation:handler:)``
    /// does.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: Where the handler runs; defaults to the caller's.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> ListenerRegistration {
        addHandler(for: Event.self, lifespan: lifespan, receivingSticky: receivingSticky) { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
    }

    /// Adds an existing registration.
    ///
    /// A ``Lifespan/lifetime`` registration starts at once.
    public func add(_ registration: ListenerRegistration, isolation: isolated (any Actor)? = #isolation) {
        registrations.withLock { $0.append(registration) }
        if registration.lifespan == .lifetime { registration.start() }
    }

    /// Starts every registration of `lifespan`, in the order they were added.
    public func start(_ lifespan: Lifespan, isolation: isolated (any Actor)? = #isolation) {
        for registration in registrations(of: lifespan) { registration.start() }
    }

    /// Stops every registration of `lifespan`.
    public func stop(_ lifespan: Lifespan) {
        for registration in registrations(of: lifespan) { registration.stop() }
    }

    /// Stops every registration, whatever its lifespan.
    public func stopAll() {
        for registration in registrations.withLock({ $0 }) { registration.stop() }
    }

    /// The registrations of `lifespan`, in the order they were added.
    public func registrations(of lifespan: Lifespan) -> [ListenerRegistration] {
        registrations.withLock { $0.filter { $0.lifespan == lifespan } }
    }
}

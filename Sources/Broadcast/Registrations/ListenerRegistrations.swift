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
    let broadcaster: Broadcaster
    private let registrations = Mutex<[ListenerRegistration]>([])

    /// Creates an empty set of registrations on `broadcaster`.
    public init(broadcaster: Broadcaster = .shared) {
        self.broadcaster = broadcaster
    }

    /// Declares that the `Sendable` `listener` listens to `listenerType`
    /// during `lifespan`; it may be declared from any code.
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
    @available(swift, introduced: 6)
    @discardableResult
    public func add<P>(
        _ listener: any AnyObject & Sendable,
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

    /// Declares that `listener` listens to `listenerType` during `lifespan`,
    /// only ever called on `actor`.
    ///
    /// A ``Lifespan/lifetime`` registration (the default) starts at once.
    /// Any listener, `Sendable` or not: its calls run on `actor` whatever code
    /// starts the registration later. The declaring code runs on `actor`
    /// (from elsewhere, `await` the call); a `Sendable` listener may be
    /// declared from any code, through the other `calledOn:` form.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func add<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        calledOn actor: isolated any Actor,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            listener, for: P.self, calledOn: actor, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky)
        add(registration)
        return registration
    }

    /// Declares that the `Sendable` `listener` listens to `listenerType`
    /// during `lifespan`, only ever called on `actor`; from any code.
    ///
    /// The same registration as
    /// ``add(_:for:calledOn:lifespan:receivingSticky:)-(AnyObject,_,_,_,_)``:
    /// a `Sendable` listener may be handed to `actor` from anywhere.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func add<P>(
        _ listener: any AnyObject & Sendable,
        for listenerType: P.Type,
        calledOn actor: any Actor,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            listener, for: P.self, calledOn: actor, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky)
        add(registration)
        return registration
    }

    /// Declares that `listener` listens to `listenerType` during `lifespan`,
    /// in the Swift 5 language mode.
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
    @available(swift, obsoleted: 6)
    @discardableResult
    public func add<P>(
        _ listener: AnyObject,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            legacy: listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingSticky)
        add(registration)
        return registration
    }

    /// Declares a `@Sendable` closure handler for `Event` values during
    /// `lifespan`, run where the post runs.
    ///
    /// The registrations keep the closure alive. A ``Lifespan/lifetime``
    /// handler (the default) starts at once. A handler that must run on an
    /// actor names it: ``addHandler(for:calledOn:lifespan:receivingSticky:handler:)``.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - handler: Called with each event, from any thread.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        handler: @escaping @Sendable (Event) -> Void
    ) -> ListenerRegistration {
        addClosure(
            ClosureListener(handler), lifespan: lifespan, receivingSticky: receivingSticky, isSendable: true,
            boundTo: nil)
    }

    /// Declares a closure handler for `Event` values during `lifespan`, run
    /// on `actor`.
    ///
    /// The registrations keep the closure alive. A ``Lifespan/lifetime``
    /// handler (the default) starts at once. The handler need not be
    /// `@Sendable`: it only ever runs on `actor`, whatever code starts it.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - handler: Called with each event, on `actor`.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        calledOn actor: isolated any Actor,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        handler: @escaping (Event) -> Void
    ) -> ListenerRegistration {
        addClosure(
            ClosureListener(handler), lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false,
            boundTo: actor)
    }

    /// Declares a closure handler for `Event` values during `lifespan`, in
    /// the Swift 5 language mode.
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
    @available(swift, obsoleted: 6)
    @discardableResult
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Event) -> Void
    ) -> ListenerRegistration {
        addClosure(
            ClosureListener(handler), lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false,
            boundTo: nil)
    }

    /// Declares a `@Sendable` closure handler for `Event` values during
    /// `lifespan` that receives the `Sendable` `owner` too, run where the
    /// post runs; skipped once `owner` is gone.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - handler: Called with `owner` and each event, from any thread.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    public func addHandler<Owner: AnyObject & Sendable, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        handler: @escaping @Sendable (Owner, Event) -> Void
    ) -> ListenerRegistration {
        let listener = ClosureListener<Event> { @Sendable [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(
            listener, lifespan: lifespan, receivingSticky: receivingSticky, isSendable: true, boundTo: nil)
    }

    /// Declares a closure handler for `Event` values during `lifespan` that
    /// receives `owner` too, run on `actor`; skipped once `owner` is gone.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - actor: The actor every call runs on; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - handler: Called with `owner` and each event, on `actor`.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @discardableResult
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        calledOn actor: isolated any Actor,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        handler: @escaping (Owner, Event) -> Void
    ) -> ListenerRegistration {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(
            listener, lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false, boundTo: actor)
    }

    /// Declares a closure handler for `Event` values during `lifespan` that
    /// receives `owner` too, in the Swift 5 language mode; skipped once
    /// `owner` is gone.
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
    @available(swift, obsoleted: 6)
    @discardableResult
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> ListenerRegistration {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(
            listener, lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false, boundTo: nil)
    }

    /// What every `addHandler` does: the registration keeps `listener`;
    /// `actor`, if any, is where it is called whatever code starts it.
    private func addClosure<Event>(
        _ listener: ClosureListener<Event>, lifespan: Lifespan, receivingSticky: Bool, isSendable: Bool,
        boundTo actor: (any Actor)?,
        isolation: isolated (any Actor)? = #isolation
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            retaining: RetainedListener(listener), object: listener,
            protocolType: EventKey<Event>.self, lifespan: lifespan, on: broadcaster,
            receivingSticky: receivingSticky, isSendable: isSendable, boundTo: actor)
        add(registration)
        return registration
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

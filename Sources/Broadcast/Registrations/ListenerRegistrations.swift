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
    public func add<Listener: AnyObject & Sendable, P>(
        _ listener: Listener,
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

    /// Declares, from the code of the actor it belongs to, that `listener`,
    /// which is not `Sendable`, listens to `listenerType` during `lifespan`.
    ///
    /// A ``Lifespan/lifetime`` registration (the default) starts at once.
    /// The listener is only ever called on the caller's actor, whatever code
    /// starts the registration later. From code isolated to no actor this
    /// does not compile in the Swift 6 language mode ("'nil' is not
    /// compatible with expected argument type 'any Actor'"): make the
    /// listener `@MainActor`, `Sendable` or an `actor`, or declare it from
    /// its actor's code.
    ///
    /// - Parameters:
    ///   - listener: Held weakly.
    ///   - listenerType: The one protocol to receive broadcasts to.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start delivers the sticky broadcast
    ///     to `listenerType`, if one is kept.
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's, which must be an actor.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    // Not Sendable, and declared from code isolated to no actor? Make the listener @MainActor,
    // make it Sendable, make it an actor, or declare it from its actor's code.
    public func add<Listener: AnyObject, P>(
        _ listener: Listener,
        for listenerType: P.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation
    ) -> ListenerRegistration {
        let registration = ListenerRegistration(
            listener, for: P.self, lifespan: lifespan, on: broadcaster, receivingSticky: receivingSticky,
            isolation: isolation)
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

    /// Declares a closure handler for `Event` values during `lifespan`, run
    /// on the caller's actor.
    ///
    /// The registrations keep the closure alive. A ``Lifespan/lifetime``
    /// handler (the default) starts at once. From code isolated to no actor,
    /// this form does not compile in the Swift 6 language mode: pass
    /// `isolation: nil` and a `@Sendable` handler.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: The actor the handler runs on; defaults to the
    ///     caller's, which must be an actor.
    ///   - handler: Called with each event.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    // Declared from code isolated to no actor? Declare it from an actor's code,
    // or pass `isolation: nil` and a @Sendable handler.
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Event) -> Void
    ) -> ListenerRegistration {
        addClosure(
            ClosureListener(handler), lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false,
            boundTo: isolation)
    }

    /// Declares a `@Sendable` closure handler for `Event` values during
    /// `lifespan`, run wherever the post runs.
    ///
    /// The form for code isolated to no actor. The registrations keep the
    /// closure alive. A ``Lifespan/lifetime`` handler (the default) starts at
    /// once.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: `nil`, or the actor where a ``Lifespan/lifetime``
    ///     registration starts.
    ///   - handler: Called with each event, from any thread.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    public func addHandler<Event: Sendable>(
        for eventType: Event.Type,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)?,
        handler: @escaping @Sendable (Event) -> Void
    ) -> ListenerRegistration {
        addClosure(
            ClosureListener(handler), lifespan: lifespan, receivingSticky: receivingSticky, isSendable: true,
            boundTo: nil)
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

    /// Declares a closure handler for `Event` values during `lifespan` that
    /// receives `owner` too, and is skipped once `owner` is gone, as
    /// `Broadcaster.addHandler(for:owner:receivingSticky:isolation:handler:)`
    /// does; run on the caller's actor.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: The actor the handler runs on; defaults to the
    ///     caller's, which must be an actor.
    ///   - handler: Called with `owner` and each event.
    /// - Returns: The registration, for callers that start and stop it
    ///   individually.
    @available(swift, introduced: 6)
    @discardableResult
    // Declared from code isolated to no actor? Declare it from an actor's code,
    // or pass `isolation: nil`, a Sendable owner and a @Sendable handler.
    public func addHandler<Owner: AnyObject, Event: Sendable>(
        for eventType: Event.Type,
        owner: Owner,
        lifespan: Lifespan = .lifetime,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor) = #isolation,
        handler: @escaping (Owner, Event) -> Void
    ) -> ListenerRegistration {
        let listener = ClosureListener<Event> { [weak owner] event in
            guard let owner else { return }
            handler(owner, event)
        }
        return addClosure(
            listener, lifespan: lifespan, receivingSticky: receivingSticky, isSendable: false, boundTo: isolation)
    }

    /// Declares a `@Sendable` closure handler for `Event` values during
    /// `lifespan` that receives the `Sendable` `owner` too, run wherever the
    /// post runs; skipped once `owner` is gone.
    ///
    /// - Parameters:
    ///   - eventType: The event values to receive.
    ///   - owner: Passed to `handler`; held weakly.
    ///   - lifespan: When to listen.
    ///   - receivingSticky: Whether each start calls `handler` with the
    ///     sticky `Event`, if one is kept.
    ///   - isolation: `nil`, or the actor where a ``Lifespan/lifetime``
    ///     registration starts.
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
        isolation: isolated (any Actor)?,
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
            protocolType: (any EventListener<Event>).self, lifespan: lifespan, on: broadcaster,
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

import Broadcast
import Foundation
import Synchronization

/// Turns the system's keyboard and application notifications into typed
/// broadcasts: ``KeyboardListener`` and ``ApplicationStateListener`` calls,
/// delivered on the main actor.
///
/// ```swift
/// let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: .default)
/// ```
///
/// - **Lifetime.** Observes `notificationCenter` from `init` until ``stop()``
///   or until the bridge is released (its observers are removed in `deinit`,
///   and they hold the bridge weakly). Keep it alive as long as you want
///   events, for example in the app delegate. A delivery already scheduled
///   when it stops still runs.
/// - **Threads.** Keyboard and application events are delivered on the main
///   actor whatever thread posted the notification: at once when posted on
///   the main actor, otherwise scheduled there in posting order. A
///   non-isolated listener (a `Downloader`) is therefore called on the main
///   actor too.
/// - **State.** The bridge remembers the latest ``applicationState`` and
///   ``keyboardState``; each is updated when the notification arrives, before
///   that event's listeners run, and can be read from any thread. A listener
///   registered with ``addListener(_:receivingCurrentState:isolation:)``
///   receives the current state at once.
/// - **Several bridges.** Bridges are independent: two bridges on one center
///   feeding different broadcasters each deliver to their own listeners; two
///   bridges feeding the same broadcaster deliver every event twice. Create
///   one bridge per broadcaster.
public final class SystemNotificationBridge: Sendable {
    /// The broadcaster events are delivered through.
    public let broadcaster: Broadcaster
    /// The center observed.
    public let notificationCenter: NotificationCenter

    private let observers = Mutex<[any NSObjectProtocol]>([])
    private let state: Mutex<BridgeState>

    /// Starts observing `notificationCenter` and delivering its keyboard and
    /// application notifications through `broadcaster`.
    ///
    /// - Parameters:
    ///   - broadcaster: Where listeners are registered.
    ///   - notificationCenter: The center to observe: `.default` in an app, a
    ///     private `NotificationCenter()` in tests (with
    ///     ``SystemNotificationSimulator``).
    ///   - initialApplicationState: The state to report until the first
    ///     state notification arrives, when the bridge is created after launch
    ///     (for example `.active`); `nil` means unknown.
    public init(
        broadcaster: Broadcaster,
        notificationCenter: NotificationCenter,
        initialApplicationState: ApplicationState? = nil
    ) {
        self.broadcaster = broadcaster
        self.notificationCenter = notificationCenter
        self.state = Mutex(BridgeState(application: initialApplicationState))
        start()
    }

    deinit {
        let tokens = observers.withLock { $0 }
        for token in tokens { notificationCenter.removeObserver(token) }
    }

    // MARK: - Observing

    /// Whether the bridge is observing its center.
    public var isObserving: Bool {
        observers.withLock { !$0.isEmpty }
    }

    /// Stops observing: no notification posted after this returns is
    /// delivered. Deliveries already scheduled still run. Calling it again
    /// does nothing.
    public func stop() {
        let tokens = observers.withLock { observers in
            defer { observers.removeAll() }
            return observers
        }
        for token in tokens { notificationCenter.removeObserver(token) }
    }

    /// Observes again after ``stop()``. Does nothing while observing; `init`
    /// already starts.
    public func start() {
        observers.withLock { observers in
            guard observers.isEmpty else { return }
            observers = SystemEvent.observedNames.map { name in
                notificationCenter.addObserver(forName: name, object: nil, queue: nil) { [weak self] notification in
                    self?.receive(notification)
                }
            }
        }
    }

    // MARK: - State

    /// The application state after the latest active, inactive or background
    /// notification; `nil` until the first one (unless given at `init`).
    public var applicationState: ApplicationState? {
        state.withLock { $0.application }
    }

    /// Whether the keyboard is up after the latest keyboard notification:
    /// ``KeyboardState/hidden`` until one shows it.
    public var keyboardState: KeyboardState {
        state.withLock { $0.keyboard }
    }

    /// Registers `listener` with the bridge's broadcaster and, if asked, tells
    /// it the current state at once.
    ///
    /// The current state is delivered as the event that leads to it:
    /// `applicationDidBecomeActive()`, `applicationWillResignActive()` or
    /// `applicationDidEnterBackground()` for an ``ApplicationStateListener``
    /// (nothing while the state is unknown), and `keyboardDidShow(_:)` with the
    /// change that last moved the keyboard for a ``KeyboardListener`` (nothing
    /// while it is hidden). Called on the main actor, this happens before the
    /// method returns; called elsewhere, it is scheduled on the main actor
    /// behind the events already scheduled there (await
    /// `broadcaster.waitForScheduledDeliveries()` to wait for it).
    /// Either way the listener sees each state once: an event already
    /// reflected in what it was told is not delivered to it again.
    ///
    /// - Parameters:
    ///   - listener: The object to register, as with
    ///     `Broadcaster.addListener(_:isolation:)`.
    ///   - receivingCurrentState: Whether to tell it the current state now.
    ///   - isolation: The caller's isolation; leave the default.
    /// - Returns: `false` if the broadcaster refused the listener.
    @discardableResult
    public func addListener(
        _ listener: AnyObject,
        receivingCurrentState: Bool,
        isolation: isolated (any Actor)? = #isolation
    ) -> Bool {
        guard broadcaster.addListener(listener, isolation: isolation) else { return false }
        guard receivingCurrentState else { return true }
        let reference = WeakReference(listener)
        state.withLock { $0.track(reference) }
        // The current state travels as a broadcast that only `listener` acts
        // on: made on the main actor it runs before this returns; made
        // elsewhere it waits in the main actor's queue behind the events
        // already scheduled, so `waitForScheduledDeliveries()` covers it.
        broadcaster.broadcastOnMainActor(to: (any ApplicationStateListener).self, isolation: isolation) { [weak self] target in
            guard let self, reference.isAlive, ObjectIdentifier(target) == reference.id else { return }
            if let state = self.state.withLock({ $0.planApplicationReplay(for: reference.id) }) {
                state.replayEvent.send(to: target)
            }
        }
        broadcaster.broadcastOnMainActor(to: (any KeyboardListener).self, isolation: isolation) { [weak self] target in
            guard let self, reference.isAlive, ObjectIdentifier(target) == reference.id else { return }
            if let change = self.state.withLock({ $0.planKeyboardReplay(for: reference.id) }) {
                KeyboardEvent.didShow.send(change, to: target)
            }
        }
        return true
    }

    // MARK: - Delivery

    private func receive(_ notification: Notification) {
        guard let event = SystemEvent(notification: notification) else { return }
        switch event {
        case .application(let event):
            let sequence = state.withLock { $0.record(event) }
            broadcaster.broadcastOnMainActor(to: (any ApplicationStateListener).self) { [weak self] listener in
                let id = ObjectIdentifier(listener)
                if let self, !self.state.withLock({ $0.admits(id, application: event, sequence) }) { return }
                event.send(to: listener)
            }
        case .keyboard(let event, let change):
            let sequence = state.withLock { $0.record(event, change) }
            broadcaster.broadcastOnMainActor(to: (any KeyboardListener).self) { [weak self] listener in
                let id = ObjectIdentifier(listener)
                if let self, !self.state.withLock({ $0.admits(id, keyboard: sequence) }) { return }
                event.send(change, to: listener)
            }
        }
    }
}

/// The bridge's memory, behind its lock: the latest states, and what each
/// listener that asked for the current state has been told.
///
/// Every event gets a sequence number when it arrives. A listener told the
/// current state (a replay) is "covered" up to the sequence number of the
/// state it was told, so an older event still on its way is not delivered to
/// it again; and a replay is skipped when the listener has already received
/// the event that set the current state, or was last told that same state.
struct BridgeState {
    var application: ApplicationState?
    var keyboard: KeyboardState = .hidden
    private var lastSequence: UInt64 = 0
    /// The event that set `application`.
    private var applicationSequence: UInt64 = 0
    /// The latest keyboard event (every one is reflected in `keyboard`).
    private var keyboardSequence: UInt64 = 0
    private var tracked: [ObjectIdentifier: Tracking] = [:]

    private struct Tracking {
        /// Alive means the identifier still names the tracked listener (two
        /// live objects never share an address); dead means it is stale.
        let reference: WeakReference
        var coveredApplication: UInt64 = 0
        var coveredKeyboard: UInt64 = 0
        var deliveredApplication: UInt64 = 0
        /// The application state the listener was last told, by an event or
        /// a replay.
        var toldApplication: ApplicationState?
        var deliveredKeyboard: UInt64 = 0
    }

    init(application: ApplicationState?) {
        self.application = application
    }

    mutating func record(_ event: ApplicationEvent) -> UInt64 {
        lastSequence += 1
        if let state = event.resultingState {
            application = state
            applicationSequence = lastSequence
        }
        return lastSequence
    }

    mutating func record(_ event: KeyboardEvent, _ change: KeyboardChange) -> UInt64 {
        lastSequence += 1
        keyboard = keyboard.applying(event, change)
        keyboardSequence = lastSequence
        return lastSequence
    }

    mutating func track(_ reference: WeakReference) {
        if tracking(reference.id) != nil { return }
        tracked = tracked.filter { $0.value.reference.isAlive }
        tracked[reference.id] = Tracking(reference: reference)
    }

    /// The tracking of the live listener `id`, if any.
    private func tracking(_ id: ObjectIdentifier) -> Tracking? {
        guard let tracking = tracked[id], tracking.reference.isAlive else { return nil }
        return tracking
    }

    /// Whether `listener` should receive application event `event`, numbered
    /// `sequence`; records the delivery.
    mutating func admits(_ id: ObjectIdentifier, application event: ApplicationEvent, _ sequence: UInt64) -> Bool {
        // Only state events are replayed, so only they can be duplicates.
        guard event.resultingState != nil, !tracked.isEmpty else { return true }
        guard var tracking = tracking(id) else { return true }
        if sequence <= tracking.coveredApplication { return false }
        tracking.deliveredApplication = Swift.max(tracking.deliveredApplication, sequence)
        tracking.toldApplication = event.resultingState
        tracked[id] = tracking
        return true
    }

    /// Whether `listener` should receive the keyboard event numbered
    /// `sequence`; records the delivery.
    mutating func admits(_ id: ObjectIdentifier, keyboard sequence: UInt64) -> Bool {
        guard !tracked.isEmpty else { return true }
        guard var tracking = tracking(id) else { return true }
        if sequence <= tracking.coveredKeyboard { return false }
        tracking.deliveredKeyboard = Swift.max(tracking.deliveredKeyboard, sequence)
        tracked[id] = tracking
        return true
    }

    /// What to tell `listener` about the current state; records it.
    /// The application state to tell listener `id`, if it has not already
    /// received the event that set it; records that it has been told.
    mutating func planApplicationReplay(for id: ObjectIdentifier) -> ApplicationState? {
        guard var tracking = tracking(id), let application else { return nil }
        guard tracking.deliveredApplication < applicationSequence || applicationSequence == 0 else { return nil }
        tracking.coveredApplication = Swift.max(tracking.coveredApplication, applicationSequence)
        // Events it already received may have left it in this very state (the
        // ones in between are covered, so it will not see them).
        let alreadyTold = tracking.toldApplication == application
        tracking.toldApplication = application
        tracked[id] = tracking
        return alreadyTold ? nil : application
    }

    /// The change that made the keyboard visible, to tell listener `id` if it
    /// has not already received it; records that it has been told.
    mutating func planKeyboardReplay(for id: ObjectIdentifier) -> KeyboardChange? {
        guard var tracking = tracking(id), case .visible(let change) = keyboard else { return nil }
        guard tracking.deliveredKeyboard < keyboardSequence else { return nil }
        tracking.coveredKeyboard = Swift.max(tracking.coveredKeyboard, keyboardSequence)
        tracked[id] = tracking
        return change
    }
}

/// A weak reference that can cross into the bridge's lock: it is only used to
/// tell whether the object is still alive, never to call it.
final class WeakReference: @unchecked Sendable {
    // @unchecked Sendable: `object` is a `weak let`, assigned once in `init`;
    // loading a weak reference is thread-safe, and the loaded value is only
    // compared with nil, so no listener state is ever shared through it.
    private weak let object: AnyObject?
    let id: ObjectIdentifier

    init(_ object: AnyObject) {
        self.object = object
        self.id = ObjectIdentifier(object)
    }

    var isAlive: Bool { object != nil }
}

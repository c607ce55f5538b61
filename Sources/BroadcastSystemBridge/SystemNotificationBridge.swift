import Broadcast
import Foundation
import Synchronization

/// Turns the system's keyboard, application and scene notifications into
/// typed broadcasts: ``KeyboardListener``, ``ApplicationStateListener`` and
/// ``SceneListener`` calls, delivered on the main actor.
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
/// - **Threads.** Keyboard, application and scene events are delivered on
///   the main actor whatever thread posted the notification: at once when
///   posted on the main actor, otherwise scheduled there in posting order. A
///   non-isolated listener (a `Downloader`) is therefore called on the main
///   actor too.
/// - **State.** The bridge remembers the latest ``applicationState`` and
///   ``keyboardState``; each is updated when the notification arrives, before
///   that event's listeners run, and can be read from any thread. The bridge
///   keeps the current state as the broadcaster's sticky broadcasts to
///   ``ApplicationStateListener`` and ``KeyboardListener``, so a listener
///   registered with
///   ``/Broadcast/Broadcaster/addListener(_:receivingSticky:isolation:fileID:line:)-(AnyObjectSendable,_,_,_,_)``
///   and `receivingSticky: true` receives it at once, as the event that leads
///   to it (`applicationDidBecomeActive()`, `keyboardDidShow(_:)`, …): on the
///   main actor, before the call returns when made there, otherwise
///   scheduled there behind the events already scheduled.
/// - **Scenes.** Each scene notification is delivered with the
///   ``SceneIdentity`` of its scene, to the ``SceneListener``s that follow
///   that scene; the bridge keeps every connected scene's state as
///   ``connectedScenes``, posted as the sticky ``ConnectedScenes`` event.
///   A scene notification whose object identifies no scene is not delivered
///   (see ``connectedScenes``).
/// - **Several bridges.** Bridges are independent: two bridges on one center
///   feeding different broadcasters each deliver to their own listeners; two
///   bridges feeding the same broadcaster deliver every event twice. Create
///   one bridge per broadcaster.
public final class SystemNotificationBridge: Sendable {
    /// The broadcaster events are delivered through.
    public let broadcaster: Broadcaster
    /// The center observed.
    public let notificationCenter: NotificationCenter

    /// The observers, shared with ``NotificationForwarder``: added with
    /// `queue: nil` (so a main-thread post reaches main-actor listeners before
    /// it returns), removed by ``stop()`` and on release.
    private let observation: NotificationObservation
    /// Also read and written by the scene delivery, in its own file.
    let state: PlatformMutex<BridgeState>
    /// Ends the application-state streams this bridge handed out, by key.
    private let streamFinishers = PlatformMutex<(nextKey: Int, finishers: [Int: @Sendable () -> Void])>((0, [:]))

    /// Starts observing `notificationCenter` and delivering its keyboard,
    /// application and scene notifications through `broadcaster`.
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
        self.state = PlatformMutex(BridgeState(application: initialApplicationState))
        self.observation = NotificationObservation(center: notificationCenter)
        Self.keepApplicationState(initialApplicationState, in: broadcaster)
        if let initialApplicationState { broadcaster.setStickyEvent(initialApplicationState) }
        start()
    }

    deinit {
        // The observation removes its observers when it is released, with
        // the bridge.
        let finishers = streamFinishers.withLock { $0.finishers.values }
        for finish in finishers { finish() }
    }

    // MARK: - Observing

    /// Whether the bridge is observing its center.
    public var isObserving: Bool {
        observation.isObserving
    }

    /// Stops observing the center.
    ///
    /// No notification posted after this returns is delivered. Deliveries
    /// already scheduled still run. Calling it again does nothing.
    public func stop() {
        observation.stop()
    }

    /// Observes the center again after ``stop()``.
    ///
    /// Does nothing while observing; `init` already starts.
    public func start() {
        observation.start(observing: SystemEvent.observedNames + SceneEvent.observedNames) {
            [weak self] notification in
            self?.receive(notification)
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

    /// The application state from now on, as an asynchronous sequence that
    /// starts with the current state, if known.
    ///
    /// ```swift
    /// for await state in bridge.applicationStates() where state == .background {
    ///     downloader.cancelCurrentRequest()
    /// }
    /// ```
    ///
    /// Each state is produced when its notification arrives, on the posting
    /// thread, before the listeners' main-actor calls run. The sequence ends
    /// when the consuming task is cancelled, when the bridge is released, or
    /// when the broadcaster is released. The values are also posted to the
    /// broadcaster as sticky `ApplicationState` events, so
    /// `broadcaster.events(of: ApplicationState.self)` sees them too.
    ///
    /// - Parameter bufferingPolicy: What to keep while the consumer is busy;
    ///   every state by default.
    /// - Returns: A sequence for one consumer.
    public func applicationStates(
        bufferingPolicy: AsyncStream<ApplicationState>.Continuation.BufferingPolicy = .unbounded
    ) -> BroadcastEvents<ApplicationState> {
        let key = streamFinishers.withLock { streams in
            defer { streams.nextKey += 1 }
            return streams.nextKey
        }
        let (events, finish) = broadcaster.makeEvents(
            of: ApplicationState.self, bufferingPolicy: bufferingPolicy, receivingStickyEvent: true
        ) { [weak self] in
            _ = self?.streamFinishers.withLock { $0.finishers.removeValue(forKey: key) }
        }
        streamFinishers.withLock { $0.finishers[key] = finish }
        return events
    }

    // MARK: - Delivery

    private func receive(_ notification: Notification) {
        if let event = SceneEvent(notificationName: notification.name) {
            return receive(event, about: notification)
        }
        guard let event = SystemEvent(notification: notification) else { return }
        switch event {
        case .application(let event):
            let changesState = state.withLock { state in
                guard let resulting = event.resultingState else { return false }
                state.application = resulting
                return true
            }
            // A state event is also the latest state: sticky, in the same
            // critical section as the delivery, so a listener registering
            // meanwhile gets it exactly once.
            broadcaster.broadcastOnMainActor(to: (any ApplicationStateListener).self, sticky: changesState) {
                event.send(to: $0)
            }
            if let resulting = event.resultingState {
                broadcaster.post(resulting, sticky: true)
            }
        case .keyboard(let event, let change):
            let keyboard = state.withLock { state in
                state.keyboard = state.keyboard.applying(event, change)
                return state.keyboard
            }
            // The state to replay is "shown with this change", not this event:
            // update it first, so a listener registering before the event is
            // delivered gets the new state (and then the event), never a
            // stale one.
            Self.keepKeyboardState(keyboard, in: broadcaster)
            broadcaster.broadcastOnMainActor(to: (any KeyboardListener).self) { event.send(change, to: $0) }
        }
    }

    private static func keepApplicationState(_ application: ApplicationState?, in broadcaster: Broadcaster) {
        guard let application else { return }
        broadcaster.setStickyBroadcastOnMainActor(for: (any ApplicationStateListener).self) {
            application.replayEvent.send(to: $0)
        }
    }

    private static func keepKeyboardState(_ keyboard: KeyboardState, in broadcaster: Broadcaster) {
        switch keyboard {
        case .visible(let change):
            broadcaster.setStickyBroadcastOnMainActor(for: (any KeyboardListener).self) {
                KeyboardEvent.didShow.send(change, to: $0)
            }
        case .hidden:
            broadcaster.clearStickyBroadcast(for: (any KeyboardListener).self)
        }
    }
}

/// The bridge's memory, behind its lock: the latest states, readable from
/// any thread.
struct BridgeState {
    var application: ApplicationState?
    var keyboard: KeyboardState = .hidden
    var scenes = LatestSceneEvents()
}

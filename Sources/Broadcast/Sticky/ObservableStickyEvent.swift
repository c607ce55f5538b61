import Observation

/// The latest sticky `Event` of a broadcaster, as an `Observable` value that
/// SwiftUI views and `withObservationTracking` read.
///
/// ```swift
/// @MainActor final class SessionModel {
///     let session = ObservableStickyEvent(for: UserSignedIn.self, on: broadcaster)
///     var greeting: String { session.value.map { "Hello, \($0.name)" } ?? "Signed out" }
/// }
/// ```
///
/// - **Starts with the current state.** Created after a sticky `Event` was
///   posted (or kept with ``Broadcaster/setStickyEvent(_:)``), ``value`` is
///   that event at once.
/// - **Follows every change, on the main actor.** A sticky post, a
///   `setStickyEvent`, a clear or a take, made on any thread, updates
///   ``value`` on the main actor: at once when made there, otherwise in a
///   call scheduled there (``Broadcaster/waitForScheduledDeliveries()`` waits
///   for it). ``value`` is `nil` once the sticky state is cleared or taken.
/// - **In order, never older.** Each update reads the state the broadcaster
///   keeps when it runs, and keeps it only if it is newer than the one shown:
///   an older state never replaces a newer one, and the last state is never
///   lost. Changes made in quick succession off the main actor may be seen
///   as one, as Observation itself coalesces them.
/// - **Held for its own lifetime.** The broadcaster holds it weakly, like any
///   listener: releasing it unregisters it.
@MainActor
public final class ObservableStickyEvent<Event: Sendable>: Observable {
    /// The latest sticky `Event`; `nil` while none is kept.
    public var value: Event? {
        registrar.access(self, keyPath: \.value)
        return shown
    }

    private let broadcaster: Broadcaster
    private let registrar = ObservationRegistrar()
    private var shown: Event?
    /// Which change of the sticky state ``shown`` is.
    private var shownChange: UInt64

    /// Holds the latest sticky `Event` of `broadcaster` from now on.
    ///
    /// - Parameters:
    ///   - eventType: The event values to follow.
    ///   - broadcaster: Where they are posted.
    public init(for eventType: Event.Type, on broadcaster: Broadcaster = .shared) {
        self.broadcaster = broadcaster
        shown = nil
        shownChange = 0
        // Registered before the first read: a change made after the read is
        // told to this observer, and one made before it is what it reads.
        // Read first, a change made in between would reach nobody.
        broadcaster.addListener(self, calledOn: MainActor.shared)
        (shown, shownChange) = broadcaster.stickyEventSnapshot(of: Event.self)
    }

    /// Shows the state the broadcaster keeps now, if it is newer.
    fileprivate func refresh() {
        let (state, change) = broadcaster.stickyEventSnapshot(of: Event.self)
        guard change > shownChange else { return }
        registrar.withMutation(of: self, keyPath: \.value) {
            shown = state
            shownChange = change
        }
    }
}

extension ObservableStickyEvent: @MainActor StickyEventObserver {
    func stickyEventChanged() { refresh() }
}

/// What follows the sticky state of one event type: told, after each change
/// (a sticky post or `setStickyEvent`, a clear, a take), that it changed.
///
/// Told, not given the state: the observer reads the state when it runs, so
/// that changes told out of order (two threads) cannot leave it on an older
/// one.
protocol StickyEventObserver<Event>: AnyObject {
    associatedtype Event: Sendable
    func stickyEventChanged()
}

extension Broadcaster {
    /// Tells the observers of `Event`'s sticky state that it changed.
    func announceStickyEventChange<Event: Sendable>(of _: Event.Type) {
        broadcast(to: (any StickyEventObserver<Event>).self) { $0.stickyEventChanged() }
    }

    /// The sticky `Event` kept now, and the generation of its latest change
    /// (0 if it never changed), read in one critical section.
    func stickyEventSnapshot<Event: Sendable>(of _: Event.Type) -> (state: Event?, change: UInt64) {
        let (sticky, change) = storage.stickySnapshot(for: ObjectIdentifier((any EventListener<Event>).self))
        return (sticky?.value(as: Event.self), change)
    }
}

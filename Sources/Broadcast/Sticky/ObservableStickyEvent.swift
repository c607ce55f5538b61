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
/// - **Held for its own lifetime.** It holds its registration; releasing it
///   unregisters it.
@MainActor
public final class ObservableStickyEvent<Event: Sendable>: Observable {
    /// The latest sticky `Event`; `nil` while none is kept.
    public var value: Event? {
        registrar.access(self, keyPath: \.value)
        return shown
    }

    private let broadcaster: Broadcaster
    private let registrar = ObservationRegistrar()
    /// Keeps this observer's handler registered while it lives.
    private var changes: BroadcastToken?
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
        changes = broadcaster.addClosure(
            StickyChangeHandler(for: Event.self) { [weak self] in self?.refresh() }, calledOn: MainActor.shared,
            receivingSticky: false)
        (shown, shownChange) = broadcaster.stickyEventSnapshot(of: Event.self)
    }

    /// Shows the state the broadcaster keeps now, if it is newer.
    private func refresh() {
        let (state, change) = broadcaster.stickyEventSnapshot(of: Event.self)
        guard change > shownChange else { return }
        registrar.withMutation(of: self, keyPath: \.value) {
            shown = state
            shownChange = change
        }
    }
}

extension Broadcaster {
    /// Tells the observers of `Event`'s sticky state that it changed: their
    /// handlers (``StickyChangeHandler``), called typed, as a post's are.
    func announceStickyEventChange<Event: Sendable>(of _: Event.Type) {
        _ = sendPost(
            to: StickyChange<Event>.self, watchedAs: nil, from: nil, calling: { _ in },
            handling: { handler, _ in handler.receive(posted: ()) },
            adapting: { _, _ in nil },
            makingEscaping: { EscapingCalls({ _ in }, handling: { $0.receive(posted: ()) }) })
    }

    /// The sticky `Event` kept now, and the generation of its latest change
    /// (0 if it never changed), read in one critical section.
    func stickyEventSnapshot<Event: Sendable>(of _: Event.Type) -> (state: Event?, change: UInt64) {
        let (sticky, change) = storage.stickySnapshot(for: ObjectIdentifier(EventKey<Event>.self))
        return (sticky?.value(as: Event.self), change)
    }
}

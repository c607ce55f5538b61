import Synchronization

/// A change of the sticky `Event` made on a broadcaster, as told to an
/// observer registered with `observeStickyEventChanges(of:_:)`.
///
/// Package access: for the PostgreSQL relay, which sends every change of a
/// sticky state it relays, not only the posts its handler sees.
package enum StickyEventChange<Event: Sendable>: Sendable {
    /// Kept by `post(_:sticky: true)` or `setStickyEvent(_:)`.
    case set(Event)
    /// Cleared by `clearStickyEvent(for:)` (told even if none was kept: the
    /// call says there is none), or by `clearStickyEvent(ifStill:)` when it
    /// cleared.
    case cleared
}

extension Broadcaster {
    /// Calls `observer` with each change of the sticky `Event` made on this
    /// broadcaster from now on, until the token is cancelled or released:
    /// synchronously, on the thread that made the change, after it was made,
    /// with no lock held (it may make a change in turn, which it is told of
    /// before its call returns).
    ///
    /// Told: a sticky post and `setStickyEvent(_:)` (`.set`),
    /// `clearStickyEvent(for:)` and a `clearStickyEvent(ifStill:)` that
    /// cleared (`.cleared`). Not told: a take
    /// (`takeStickyEvent(for:)`, a handler registered with
    /// `consumingSticky: true`), which consumes the state where it is taken,
    /// and `clearAllStickyBroadcasts()`, a reset of this broadcaster.
    ///
    /// Changes made on two threads at once may be told in the other order
    /// than they were made: an observer that needs the latest state reads it.
    package func observeStickyEventChanges<Event: Sendable>(
        of _: Event.Type,
        _ observer: @escaping @Sendable (StickyEventChange<Event>) -> Void
    ) -> BroadcastToken {
        // The change is told as an event of its own type, which only this
        // package can name: a post of it reaches this closure handler,
        // routed and called typed as any handler is. Counted before it is
        // registered, so that a change made once this returns is told.
        StickyEventChangeObservers.count.add(1, ordering: .relaxed)
        let token = addHandler(for: StickyEventChange<Event>.self, handler: observer)
        return BroadcastToken(retaining: RetainedListener(token)) {
            token.cancel()
            StickyEventChangeObservers.count.subtract(1, ordering: .relaxed)
        }
    }

    /// Tells the observers of `Event`'s sticky changes about `change`, just
    /// made on this thread.
    func tellStickyEventChange<Event: Sendable>(
        _ change: StickyEventChange<Event>, isolation: isolated (any Actor)? = #isolation
    ) {
        // An app that registers none (every app without the relay) pays a
        // load, not a broadcast, for each change.
        guard StickyEventChangeObservers.count.load(ordering: .relaxed) > 0 else { return }
        // A post of the library's own, which a tap does not see (`watchedAs: nil`).
        _ = sendPost(
            to: EventKey<StickyEventChange<Event>>.self, watchedAs: nil, from: isolation,
            calling: { $0.receive(change) }, handling: { handler, _ in handler.receive(posted: change) },
            adapting: { _, _ in nil },
            makingEscaping: {
                EscapingCalls({ $0.receive(change) }, handling: { $0.receive(posted: change) })
            })
    }
}

/// The observers of sticky changes registered on every broadcaster of the
/// process and not yet unregistered.
private enum StickyEventChangeObservers {
    static let count = Atomic<Int>(0)
}

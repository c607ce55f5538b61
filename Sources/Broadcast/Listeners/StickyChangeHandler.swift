/// What an ``ObservableStickyEvent`` registers to be told that its event's
/// sticky state changed: a handler the library holds, called typed by
/// ``Broadcaster/announceStickyEventChange(of:)``.
///
/// An ``EventHandler``, routed as a post's closure handlers are
/// (``HandlerRouting``): found by its class and called without a cast to a
/// protocol (a constrained existential such as `any Observer<Event>` costs
/// about 950 ns per cast on this toolchain; see Docs/PerformanceNotes.md).
final class StickyChangeHandler: EventHandler {
    private let changed: () -> Void

    /// Calls `changed` after each change of `Event`'s sticky state, where
    /// the registration routes it (the observer's: the main actor).
    init<Event: Sendable>(for _: Event.Type, changed: @escaping () -> Void) {
        self.changed = changed
        super.init(postKey: ObjectIdentifier(StickyChange<Event>.self))
    }

    /// The announcement carries no value: the observer reads the state when
    /// it runs, so that changes told out of order cannot leave it on an
    /// older one.
    override func receive<Posted>(posted _: Posted) {
        changed()
    }
}

/// The key under which the changes of `Event`'s sticky state are announced.
///
/// A type nothing makes an instance of (its one initialiser is private and
/// unused), so only ``StickyChangeHandler``s (found by their post key) are
/// ever called with it. Not a caseless enum: the announcement's closures take
/// it as a parameter, and the compiler warns that a closure taking a caseless
/// enum never runs.
struct StickyChange<Event> {
    private init() {}
}

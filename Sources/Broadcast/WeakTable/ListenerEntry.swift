import Synchronization

/// One registration in a broadcaster's weak table: the listener, held weakly,
/// and everything recorded about it when it registered.
///
/// Entries are shared by the table, the per-protocol indexes and broadcasts in
/// flight on other threads, so they are immutable except for `retired`, which
/// is atomic.
@usableFromInline
final class ListenerEntry: @unchecked Sendable {
    // @unchecked Sendable: every stored property is either immutable (`id`,
    // `isolation`, `onlyProtocol`), an `Atomic` (`retired`), or the
    // `weak let` reference. Loading a weak reference is thread-safe in the Swift
    // runtime (it races only with assignment, and a `let` is never reassigned);
    // the loaded strong reference is handed to listener code only under the
    // delivery rules in Docs/Semantics.md ("Sendability").

    /// The listener.
    ///
    /// Weak: the table never keeps it alive.
    @usableFromInline weak let object: AnyObject?

    /// The listener's identity when it registered.
    ///
    /// Valid as a key only while
    /// `object` is alive: after it dies the address can be reused, which is why
    /// the table checks liveness before trusting a match.
    let id: ObjectIdentifier

    /// The isolation the listener registered from.
    ///
    /// `nil` means the listener may
    /// be called on any thread; an actor means it is only ever called there.
    @usableFromInline let isolation: (any Actor)?

    /// Set for a registration that listens to one protocol only.
    let onlyProtocol: ObjectIdentifier?

    /// Set once the entry is removed.
    ///
    /// A broadcast checks it immediately before
    /// each call, so a listener removed during a broadcast is not called by
    /// the rest of it.
    @usableFromInline let retired = Atomic<Bool>(false)

    init(object: AnyObject, isolation: (any Actor)?, onlyProtocol: ObjectIdentifier?) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.isolation = isolation
        self.onlyProtocol = onlyProtocol
    }

    @inlinable
    var isRetired: Bool { retired.load(ordering: .acquiring) }

    func retire() { retired.store(true, ordering: .releasing) }

    /// The listener, if it is still registered and alive.
    @inlinable
    var liveObject: AnyObject? {
        isRetired ? nil : object
    }

    /// Whether this entry takes part in broadcasts to the protocol `protocolID`.
    @inline(__always)
    func listens(to protocolID: ObjectIdentifier) -> Bool {
        onlyProtocol == nil || onlyProtocol == protocolID
    }
}

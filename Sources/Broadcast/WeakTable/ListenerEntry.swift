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
    // `isolationBox`, `onlyProtocol`, the debug `registrationSite`), an
    // `Atomic` (`retired`), or the
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
    @inlinable
    var isolation: (any Actor)? { isolationBox?.actor }

    /// `isolation` in one word instead of an existential's two: an entry is
    /// 49 bytes (a 56-byte allocation) instead of 57 (72); the main actor's
    /// box is shared, so only listeners of other actors allocate one.
    @usableFromInline let isolationBox: IsolationBox?

    /// Set for a registration that listens to one protocol only.
    let onlyProtocol: ObjectIdentifier?

    /// Set once the entry is removed.
    ///
    /// A broadcast checks it immediately before
    /// each call, so a listener removed during a broadcast is not called by
    /// the rest of it.
    @usableFromInline let retired = Atomic<Bool>(false)

    #if DEBUG
        /// Where `addListener` was called, for debug-build diagnostics; nil
        /// for the other ways of registering.
        let registrationSite: (fileID: StaticString, line: UInt)?

        init(
            object: AnyObject, isolation: (any Actor)?, onlyProtocol: ObjectIdentifier?,
            registrationSite: (fileID: StaticString, line: UInt)? = nil
        ) {
            self.object = object
            self.id = ObjectIdentifier(object)
            self.isolationBox = isolation.map { $0 === MainActor.shared ? IsolationBox.mainActor : IsolationBox($0) }
            self.onlyProtocol = onlyProtocol
            self.registrationSite = registrationSite
        }
    #else
        init(object: AnyObject, isolation: (any Actor)?, onlyProtocol: ObjectIdentifier?) {
            self.object = object
            self.id = ObjectIdentifier(object)
            self.isolationBox = isolation.map { $0 === MainActor.shared ? IsolationBox.mainActor : IsolationBox($0) }
            self.onlyProtocol = onlyProtocol
        }
    #endif

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

/// An entry's isolation, boxed (see ``ListenerEntry/isolationBox``).
@usableFromInline
final class IsolationBox: Sendable {
    @usableFromInline let actor: any Actor

    static let mainActor = IsolationBox(MainActor.shared)

    init(_ actor: any Actor) {
        self.actor = actor
    }
}

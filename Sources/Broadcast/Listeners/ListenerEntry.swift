import Synchronization

/// One registration in a broadcaster's weak table: the listener, held weakly,
/// and everything recorded about it when it registered.
///
/// Entries are shared by the table, the per-protocol indexes and broadcasts in
/// flight on other threads, so they are immutable except for `retired`, which
/// is atomic.
final class ListenerEntry: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable (`id`,
    // `isolationBox`, `isSendable`, the debug `registrationSite`), atomic
    // (`retired`, and `extras`, whose object is Sendable), or the `weak let`
    // reference. Loading a weak
    // reference is thread-safe in the Swift runtime (it races only with
    // assignment, and a `let` is never reassigned); the loaded strong
    // reference is handed to listener code only under the delivery rules in
    // the "Delivery Semantics" article ("Sendability").

    /// The listener.
    ///
    /// Weak: the table never keeps it alive.
    weak let object: AnyObject?

    /// The listener's identity when it registered.
    ///
    /// Valid as a key only while `object` is alive: after it dies the
    /// address can be reused, which is why the table checks liveness before
    /// trusting a match.
    let id: ObjectIdentifier

    /// The actor the listener registered from, boxed (see ``IsolationBox``);
    /// nil means it may be called on any thread.
    let isolationBox: IsolationBox?

    /// Whether the listener is `Sendable`, as the registering call's type
    /// proved: then a broadcast may call it wherever its conformance holds,
    /// and its actor is only where a call goes when the conformance holds
    /// there alone.
    let isSendable: Bool

    /// Set once the entry is removed.
    ///
    /// A broadcast checks it immediately
    /// before each call, so a listener removed during a broadcast is not
    /// called by the rest of it.
    private let retired = Atomic<Bool>(false)

    /// What most entries never need (see ``EntryExtras``): made at
    /// registration for a single-protocol registration, otherwise on the
    /// first call of a sticky broadcast.
    private let extras = AtomicLazyReference<EntryExtras>()

    #if DEBUG
        /// Where `addListener` was called, for debug-build diagnostics; nil
        /// for the other ways of registering.
        let registrationSite: RegistrationSite?
    #endif

    init(
        object: AnyObject, isolation: (any Actor)?, onlyProtocol: Any.Type?, isSendable: Bool = false,
        registrationSite: RegistrationSite? = nil
    ) {
        self.object = object
        self.id = ObjectIdentifier(object)
        self.isolationBox = isolation.map(IsolationBox.for)
        self.isSendable = isSendable
        #if DEBUG
            self.registrationSite = registrationSite
        #endif
        if let onlyProtocol { _ = extras.storeIfNil(EntryExtras(onlyProtocolType: onlyProtocol)) }
    }

    /// Set for a registration that listens to one protocol only: that
    /// protocol.
    var onlyProtocolType: Any.Type? { extras.load()?.onlyProtocolType }

    /// The actor the listener registered from, if any (see ``Routing``).
    var isolation: (any Actor)? { isolationBox?.actor }

    /// The identity of ``isolationBox``, if any: what a broadcast compares
    /// to tell runs of listeners of one actor apart.
    var isolationID: ObjectIdentifier? {
        guard let isolationBox else { return nil }
        return ObjectIdentifier(isolationBox)
    }

    var isRetired: Bool { retired.load(ordering: .acquiring) }

    func retire() { retired.store(true, ordering: .releasing) }

    /// The listener, if it is still registered and alive; for code that
    /// runs with no lock held.
    var liveObject: AnyObject? {
        isRetired ? nil : object
    }

    /// ``liveObject``, for code under the broadcaster's lock: the strong
    /// reference the load makes is kept in `releases`, so that if another
    /// thread lets go of the listener meanwhile, its `deinit` runs after the
    /// lock is released, not under it.
    func liveObject(keepingIn releases: inout Releases) -> AnyObject? {
        guard let object = liveObject else { return nil }
        releases.keep(object)
        return object
    }

    /// The listener, if alive, registered or not, for code under the
    /// broadcaster's lock (see ``liveObject(keepingIn:)``).
    func object(keepingIn releases: inout Releases) -> AnyObject? {
        guard let object else { return nil }
        releases.keep(object)
        return object
    }

    /// Whether the listener is alive, for code under the broadcaster's lock
    /// (see ``liveObject(keepingIn:)``).
    func isAlive(keepingIn releases: inout Releases) -> Bool {
        object(keepingIn: &releases) != nil
    }

    /// Whether a broadcast that does not run on the listener's actor may
    /// still call it where it runs, when its conformance holds there: the
    /// listener is `Sendable`, and the runtime's cast checks conformances
    /// isolated to an actor (so a success proves the call may run here).
    var mayBeCalledOffItsActor: Bool {
        isSendable && Self.runtimeChecksIsolatedConformances
    }

    /// Whether the Swift runtime's cast checks isolated conformances.
    ///
    /// On Linux the runtime ships with the toolchain (6.2 or later); on Apple
    /// platforms it is the one of the OS, from the 26 releases on. On an
    /// older runtime the cast of `extension Screen: @MainActor P` succeeds
    /// on any thread, so there a listener of an actor is called only there.
    static let runtimeChecksIsolatedConformances: Bool = {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
    }()

    /// Claims the call of a sticky broadcast to this listener (see
    /// ``StickyProgress``): false if a newer state already reached it.
    func claims(_ generation: StickyGeneration) -> Bool {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        return extras.stickyProgress.claim(generation)
    }

    /// The identity of ``onlyProtocolType``.
    var onlyProtocol: ObjectIdentifier? { onlyProtocolType.map(ObjectIdentifier.init) }

    /// Whether this entry takes part in broadcasts to the protocol `protocolID`.
    func listens(to protocolID: ObjectIdentifier) -> Bool {
        onlyProtocol == nil || onlyProtocol == protocolID
    }
}

/// Where `addListener` was called (`#fileID`, `#line`), for the debug-build
/// diagnostics that name it.
struct RegistrationSite: Sendable {
    let fileID: StaticString
    let line: UInt
}

/// The parts of a ``ListenerEntry`` that most entries never need, kept out of
/// line so that an entry fits one 64-byte allocation (the benchmark's guard
/// rail on bytes per registration): the one protocol of a single-protocol
/// registration, and the sticky generations its listener was called with.
final class EntryExtras: Sendable {
    let onlyProtocolType: Any.Type?
    let stickyProgress = StickyProgress()

    init(onlyProtocolType: Any.Type?) {
        self.onlyProtocolType = onlyProtocolType
    }
}

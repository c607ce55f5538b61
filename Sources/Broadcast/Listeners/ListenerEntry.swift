import Synchronization

/// One registration in a broadcaster's table: the listener, held weakly, and
/// what was recorded when it registered.
///
/// Shared by the table, the indexes and broadcasts in flight on other
/// threads, so it is immutable but for atomics.
final class ListenerEntry: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable, atomic, or the
    // `weak let`, whose loads are thread-safe and which is never reassigned;
    // the loaded listener reaches listener code only as `Routing` decides.
    weak let object: AnyObject?

    /// The listener's identity when it registered: a key only while it lives,
    /// since a dead object's address can be reused.
    let id: ObjectIdentifier

    /// The actor the listener registered from; nil: it may be called anywhere.
    let isolationBox: IsolationBox?

    /// Whether the registering call proved the listener `Sendable`: it may
    /// then be called off its actor wherever its conformance holds.
    let isSendable: Bool

    /// Set once removed; checked before every call.
    private let retired = Atomic<Bool>(false)

    /// Made at registration for a single-protocol registration, otherwise on
    /// the first sticky call: an entry without it fits a 64-byte allocation.
    private let extras = AtomicLazyReference<EntryExtras>()

    #if DEBUG
        /// Where `addListener` was called, for debug-build diagnostics.
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

    /// For a registration that listens to one protocol only: that protocol.
    var onlyProtocolType: Any.Type? { extras.load()?.onlyProtocolType }

    var onlyProtocol: ObjectIdentifier? { onlyProtocolType.map(ObjectIdentifier.init) }

    func listens(to protocolID: ObjectIdentifier) -> Bool {
        guard let onlyProtocol else { return true }
        return onlyProtocol == protocolID
    }

    var isolation: (any Actor)? { isolationBox?.actor }

    var isolationID: ObjectIdentifier? {
        guard let isolationBox else { return nil }
        return ObjectIdentifier(isolationBox)
    }

    var isRetired: Bool { retired.load(ordering: .acquiring) }

    func retire() { retired.store(true, ordering: .releasing) }

    /// The listener, if registered and alive; for code with no lock held.
    var liveObject: AnyObject? {
        isRetired ? nil : object
    }

    /// The listener, if alive, for code under the broadcaster's lock: the
    /// strong reference the load makes goes into `releases`, so a `deinit`
    /// it may end in runs after the lock.
    func object(keepingIn releases: inout Releases) -> AnyObject? {
        guard let object else { return nil }
        releases.keep(object)
        return object
    }

    func isAlive(keepingIn releases: inout Releases) -> Bool {
        object(keepingIn: &releases) != nil
    }

    /// Whether a broadcast off the listener's actor may call it where its
    /// conformance holds: it is `Sendable`, and the runtime's cast checks
    /// isolated conformances.
    var mayBeCalledOffItsActor: Bool {
        isSendable && Self.runtimeChecksIsolatedConformances
    }

    /// Linux ships the runtime with the toolchain (6.2 or later); Apple
    /// platforms before the 26 releases have one whose cast of
    /// `extension Screen: @MainActor P` succeeds on any thread.
    static let runtimeChecksIsolatedConformances: Bool = {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
        return false
    }()

    /// The newest sticky state, per protocol, this listener object was called
    /// with; shared by every entry of the object (``ListenerTable``).
    var stickyProgress: StickyProgress {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        return extras.progress.load() ?? extras.progress.storeIfNil(StickyProgress())
    }

    /// Makes this entry's calls claim on `progress`; the table calls it when
    /// it adds the entry, before any claim.
    func share(_ progress: StickyProgress) {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        _ = extras.progress.storeIfNil(progress)
    }

    /// Claims the call of a sticky broadcast: false if a newer state of its
    /// protocol already reached the listener.
    func claims(_ generation: StickyGeneration) -> Bool {
        stickyProgress.claim(generation)
    }
}

/// A listener's actor, boxed: one word in an entry, one shared box for every
/// main-actor listener, and an identity a broadcast compares cheaply.
final class IsolationBox: Sendable {
    let actor: any Actor

    static let mainActor = IsolationBox(MainActor.shared)
    static let mainActorID = ObjectIdentifier(mainActor)

    private init(_ actor: any Actor) {
        self.actor = actor
    }

    static func `for`(_ actor: any Actor) -> IsolationBox {
        actor === MainActor.shared ? mainActor : IsolationBox(actor)
    }

    var isMainActor: Bool { self === Self.mainActor }
}

/// Where `addListener` was called, for debug-build diagnostics.
struct RegistrationSite: Sendable {
    let fileID: StaticString
    let line: UInt
}

/// What most entries never need, out of line.
final class EntryExtras: Sendable {
    let onlyProtocolType: Any.Type?
    let progress = AtomicLazyReference<StickyProgress>()

    init(onlyProtocolType: Any.Type?) {
        self.onlyProtocolType = onlyProtocolType
    }
}

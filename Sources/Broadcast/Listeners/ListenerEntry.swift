import Synchronization

/// One registration: the listener, held weakly, and what was recorded when it
/// registered; shared across threads, so immutable but for atomics.
final class ListenerEntry: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable, atomic, or the
    // `weak let`, whose loads are thread-safe and which is never reassigned;
    // the loaded listener reaches listener code only as `Routing` decides.
    /// The listener, held weakly; nil from the start for a handler the entry
    /// holds (``heldHandler``), which then has no weak reference to it.
    private weak let weakObject: AnyObject?

    /// A key only while the listener lives: a dead object's address can be reused.
    let id: ObjectIdentifier

    /// The actor the listener registered from.
    let isolationBox: IsolationBox?

    /// Whether the registering call proved the listener `Sendable`.
    let isSendable: Bool

    /// A user's listener, whose conformance may be isolated to an actor;
    /// Broadcast's own closure listeners conform without isolation, so a
    /// failed cast of theirs is definitive anywhere.
    let conformanceMayBeIsolated: Bool

    /// Whether the listener is a closure handler (an ``EventHandler``),
    /// decided once here: a post tells it from an object by this byte, in
    /// the entry's padding, rather than by asking the runtime for its class.
    let isHandler: Bool

    private let retired = Atomic<Bool>(false)

    /// The protocol the main actor found this listener with no actor a `P`
    /// for only there, as a tag; 0 until then.
    ///
    /// The tag is the low 32 bits of its `ObjectIdentifier`, never 0. Four bytes in the
    /// entry's padding, read by every delivery to a listener with no actor;
    /// two protocols whose tags collide (metadata 4 GiB apart) would only
    /// send the other's calls to the main actor, whose cast then decides.
    private let mainActorOnlyProtocolTag = Atomic<UInt32>(0)

    /// Made only for a single-protocol registration or a sticky call, so that
    /// an entry fits a 64-byte allocation.
    private let extras = StoredOnce<EntryExtras>()

    #if DEBUG
        let registrationSite: RegistrationSite?
    #endif

    init(
        object: AnyObject, isolation: (any Actor)?, onlyProtocol: Any.Type?, isSendable: Bool = false,
        conformanceMayBeIsolated: Bool = false, registrationSite: RegistrationSite? = nil
    ) {
        self.weakObject = object
        self.id = ObjectIdentifier(object)
        self.isolationBox = isolation.map(IsolationBox.for)
        self.isSendable = isSendable
        self.conformanceMayBeIsolated = conformanceMayBeIsolated
        self.isHandler = object is EventHandler
        #if DEBUG
            self.registrationSite = registrationSite
        #endif
        if let onlyProtocol { _ = extras.storeIfNil(EntryExtras(onlyProtocolType: onlyProtocol)) }
    }

    /// The entry of a closure handler its ``BroadcastToken`` owns.
    ///
    /// It holds the handler strongly, so a post calls it with no weak load;
    /// the storage lets the entry go when the token unregisters it
    /// (``ProtocolIndex/noteRetired(_:releasing:)``).
    init(holding handler: EventHandler, isolation: (any Actor)?) {
        self.weakObject = nil
        self.id = ObjectIdentifier(handler)
        self.isolationBox = isolation.map(IsolationBox.for)
        self.isSendable = false
        self.conformanceMayBeIsolated = false
        self.isHandler = true
        #if DEBUG
            self.registrationSite = nil
        #endif
        _ = extras.storeIfNil(EntryExtras(onlyProtocolType: nil, heldHandler: handler))
    }

    /// The listener: the handler the entry holds, or the object it
    /// references weakly (nil once that object is gone).
    var object: AnyObject? {
        if let weakObject { return weakObject }
        return heldHandler
    }

    /// The closure handler this entry holds strongly, for as long as the
    /// entry lives; nil for every other entry.
    @inline(__always)
    var heldHandler: EventHandler? { extras.load()?.heldHandler }

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

    /// Whether the main actor found, for this listener with no actor, a
    /// conformance that holds only there: later broadcasts made elsewhere
    /// send its calls there, as for a listener registered from main-actor code.
    var hasConformanceIsolatedToMainActor: Bool { mainActorOnlyProtocolTag.load(ordering: .relaxed) != 0 }

    /// Whether the main actor found this listener a `P` only there: a
    /// broadcast to `P` made elsewhere schedules the call without a cast
    /// that would fail (a lookup in the extras most entries never make).
    @inline(__always)
    func conformsOnlyOnMainActor<P>(as _: P.Type) -> Bool {
        let tag = mainActorOnlyProtocolTag.load(ordering: .relaxed)
        return tag != 0 && tag == Self.tag(of: P.self)
    }

    @inline(__always)
    private static func tag(of protocolType: Any.Type) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(protocolType))) | 1
    }

    /// A user's listener with no actor, on a runtime that checks isolated
    /// conformances: a failed cast off the main actor tells nothing, and
    /// the main actor's cast settles it.
    var isSettledByMainActor: Bool {
        isolationBox == nil && conformanceMayBeIsolated && Self.runtimeChecksIsolatedConformances
    }

    /// ``isSettledByMainActor``, and not found a `P` only there yet.
    var isUnsettledWithNoActor: Bool {
        isSettledByMainActor && !hasConformanceIsolatedToMainActor
    }

    func noteConformanceIsolatedToMainActor<P>(as _: P.Type) {
        mainActorOnlyProtocolTag.store(Self.tag(of: P.self), ordering: .relaxed)
    }

    /// For code with no lock held.
    var liveObject: AnyObject? {
        isRetired ? nil : object
    }

    /// For code under the lock: the strong reference the load makes is kept
    /// in `releases`, so a `deinit` it may end in runs after the lock.
    func object(keepingIn releases: inout Releases) -> AnyObject? {
        guard let object else { return nil }
        releases.keep(object)
        return object
    }

    func isAlive(keepingIn releases: inout Releases) -> Bool {
        object(keepingIn: &releases) != nil
    }

    /// Whether a broadcast off the listener's actor may call it where its
    /// conformance holds (the runtime's cast checks isolated conformances).
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

    /// Shared by every entry of the object (``ListenerTable``).
    var stickyProgress: StickyProgress {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        return extras.progress.load() ?? extras.progress.storeIfNil(StickyProgress())
    }

    /// Called by the table when it adds the entry, before any claim.
    func share(_ progress: StickyProgress) {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        _ = extras.progress.storeIfNil(progress)
    }

    /// The typed call a post made for this object (``EventListenerAdapter``),
    /// if one did: read by every post that reaches it.
    @inline(__always)
    var eventListenerAdapter: EventListenerAdapter? { extras.load()?.eventListenerAdapter.load() }

    /// Keeps `adapter`, unless one is kept already (made by a post racing
    /// this one, from the same conformance).
    func keep(_ adapter: EventListenerAdapter) {
        let extras = extras.load() ?? extras.storeIfNil(EntryExtras(onlyProtocolType: nil))
        _ = extras.eventListenerAdapter.storeIfNil(adapter)
    }

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

struct RegistrationSite: Sendable {
    let fileID: StaticString
    let line: UInt
}

final class EntryExtras: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable or atomic; the
    // held handler reaches its code only as `HandlerRouting` decides, as a
    // listener loaded from an entry's weak reference does.
    let onlyProtocolType: Any.Type?
    let progress = StoredOnce<StickyProgress>()
    let eventListenerAdapter = StoredOnce<EventListenerAdapter>()
    let heldHandler: EventHandler?

    init(onlyProtocolType: Any.Type?, heldHandler: EventHandler? = nil) {
        self.onlyProtocolType = onlyProtocolType
        self.heldHandler = heldHandler
    }
}

/// A reference stored at most once and read with no lock: what
/// `AtomicLazyReference` does, compiled in this module.
///
/// On this toolchain `AtomicLazyReference.load()` is an unspecialised call
/// into the Synchronization library, which looks up generic metadata on
/// every load (about 90 instructions per load, measured on a post's
/// delivery); this one is specialised where it is used.
struct StoredOnce<Instance: AnyObject>: ~Copyable {
    // Unmanaged: the slot owns one retain of the stored instance, taken when
    // it is stored and given back in `deinit`; a reader's `takeUnretainedValue`
    // is covered by it, as the reader holds the slot's owner.
    private let slot = Atomic<Unmanaged<Instance>?>(nil)

    init() {}

    func load() -> Instance? {
        slot.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Stores `instance` unless an instance is stored already; returns the
    /// one stored.
    func storeIfNil(_ instance: Instance) -> Instance {
        // Unmanaged: the retain the slot owns if the exchange succeeds; given back at once if it fails.
        let retained = Unmanaged.passRetained(instance)
        let (exchanged, stored) = slot.compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        guard !exchanged, let stored else { return instance }
        retained.release()
        return stored.takeUnretainedValue()
    }

    deinit {
        slot.load(ordering: .acquiring)?.release()
    }
}

// @unchecked Sendable: the slot is atomic, and a stored instance is Sendable.
extension StoredOnce: @unchecked Sendable where Instance: Sendable {}

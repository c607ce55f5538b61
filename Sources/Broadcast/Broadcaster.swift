import Synchronization

/// Delivers typed broadcasts to the listeners that conform to a protocol.
///
/// A listener is any class instance. It registers once, is held weakly, and
/// receives every broadcast made to a protocol it conforms to, as a typed call:
///
/// ```swift
/// nonisolated protocol PostCreationListener: AnyObject {
///     func postCreated(_ post: Post)
/// }
///
/// nonisolated extension Broadcaster {
///     func postCreated(_ post: Post) {
///         broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
///     }
/// }
///
/// final class FeedController: PostCreationListener {
///     init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
///     func postCreated(_ post: Post) { /* typed, no userInfo */ }
/// }
/// ```
///
/// Semantics (each pinned by a test; see `Docs/Semantics.md`):
/// - **Weak.** The broadcaster never keeps a listener alive; one that is
///   deallocated is never called, counted or returned again.
/// - **Identity.** One registration per object (`===`); adding it again changes
///   nothing.
/// - **Order.** Listeners are called in registration order (within each actor
///   a delivery runs on).
/// - **Re-entrancy.** A listener added during a broadcast is not called by it;
///   one removed or released during it, and not yet called, is not called; a
///   broadcast made from a listener is delivered completely before the outer
///   one continues.
/// - **Threads.** Every method may be called from any thread. No lock is held
///   while a listener runs.
/// - **Actors.** A listener registered from an actor's code (for example in a
///   `@MainActor` initializer) is only ever called on that actor: at once when
///   the broadcast is made there, otherwise through a scheduled delivery. A
///   listener registered from non-isolated code may be called on any thread.
public final class Broadcaster: Sendable {
    /// A broadcaster for the whole process.
    ///
    /// Convenient for apps; code under test usually injects its own instance
    /// instead, so tests don't share listeners.
    public static let shared = Broadcaster()

    /// The one lock and everything behind it.
    let storage = Mutex(BroadcasterStorage())
    /// Deliveries scheduled on actors, one FIFO per actor.
    let mailboxes = ActorMailboxes()

    #if DEBUG
        /// Receives debug-build diagnostics; nil writes them to standard error.
        let diagnosticHandler: (@Sendable (BroadcastDiagnostic) -> Void)?
    #endif

    /// Creates a broadcaster with no listeners.
    public init() {
        #if DEBUG
            diagnosticHandler = nil
            installIsolatedConformanceCheck()
        #endif
    }

    /// Creates a broadcaster with no listeners that hands its debug-build
    /// diagnostics to `handler` instead of writing them to standard error.
    ///
    /// For tests that check for, or deliberately make, the mistakes a
    /// ``BroadcastDiagnostic`` reports. Release builds report nothing, keep
    /// nothing and never call `handler`.
    ///
    /// - Parameter handler: Called on the thread that made the mistake, once
    ///   per diagnostic, with no lock held.
    public init(onDiagnostic handler: @escaping @Sendable (BroadcastDiagnostic) -> Void) {
        #if DEBUG
            diagnosticHandler = handler
            installIsolatedConformanceCheck()
        #endif
    }

    deinit {
        // Ends every event stream still open, outside the lock.
        let finishers = storage.withLock { $0.takeStreamFinishers() }
        for finish in finishers { finish() }
    }

    // MARK: - Listeners

    /// Registers `listener` for every broadcast to a protocol it conforms to.
    ///
    /// The broadcaster holds the listener weakly: there is nothing to undo in
    /// `deinit`. Adding an object that is already registered changes nothing
    /// (it keeps its position in the delivery order).
    ///
    /// The isolation of the calling code is recorded: register a `@MainActor`
    /// listener from main-actor code and it is only ever called on the main
    /// actor.
    ///
    /// In a debug build, registering an object that nothing else keeps
    /// alive (`broadcaster.addListener(Downloader())`) is reported with its
    /// type and `fileID`:`line` (see ``BroadcastDiagnostic``): the argument
    /// is taken as `consuming`, so the call holds the caller's reference and
    /// sees whether the object outlives it. Release builds check nothing; the
    /// declaration is the same in both.
    ///
    /// - Parameters:
    ///   - listener: The object to call. A value type boxed as `AnyObject`
    ///     (a struct, or the Foundation objects that numbers and strings bridge
    ///     to) would be released at once and never called, so it is refused.
    ///   - receivingSticky: Whether to call `listener` at once with the latest
    ///     sticky broadcast of each protocol it conforms to (see
    ///     ``broadcast(to:sticky:isolation:_:)``). Ignored if it was already
    ///     registered: it has seen those broadcasts.
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's.
    ///   - fileID: Where the call is, for the debug-build report; leave the
    ///     default.
    ///   - line: Where the call is, for the debug-build report; leave the
    ///     default.
    /// - Returns: `true` if `listener` was registered; `false` if it was
    ///   refused (a one-time message names its type).
    @discardableResult
    public func addListener(
        _ listener: consuming AnyObject,
        receivingSticky: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Bool {
        #if DEBUG
            let check = UnretainedListenerCheck(copy listener, fileID: fileID, line: line)
            let added = add(
                copy listener, receivingSticky: receivingSticky, from: isolation, registeredAt: (fileID, line))
            // Lets go of the caller's reference here rather than after
            // returning, so that an object nothing else holds is released
            // now, where the check sees it (no lock is held: its deinit may
            // use this broadcaster).
            _ = consume listener
            if added { check.reportIfReleased(to: self) }
            return added
        #else
            // The body of `add`, written out: callgrind counted ~80 more
            // instructions per add through the extra call.
            guard ListenerValidation.accepts(listener) else { return false }
            let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil)
            register(entry, receivingStickyBroadcasts: receivingSticky, from: isolation)
            return true
        #endif
    }

    #if DEBUG
        /// Validates and registers `listener`.
        private func add(
            _ listener: AnyObject, receivingSticky: Bool, from isolation: (any Actor)?,
            registeredAt site: (fileID: StaticString, line: UInt)
        ) -> Bool {
            guard ListenerValidation.accepts(listener) else { return false }
            let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil, registrationSite: site)
            register(entry, receivingStickyBroadcasts: receivingSticky, from: isolation)
            return true
        }
    #endif

    /// Unregisters a listener added with ``addListener(_:receivingSticky:isolation:fileID:line:)``.
    ///
    /// Removing an object that is not registered does nothing. Its
    /// ``ListenerRegistration``s, if any, are separate and keep listening
    /// until stopped.
    ///
    /// Once this returns, no broadcast that starts afterwards calls `listener`,
    /// nor does the rest of a broadcast in flight on this thread. A call that
    /// another thread has already begun may still finish.
    public func removeListener(_ listener: AnyObject) {
        unregister(EntryKey(object: ObjectIdentifier(listener), onlyProtocol: nil))
    }

    /// The live listeners that conform to `listenerType` and that a broadcast
    /// made here would call here, in registration order.
    ///
    /// A listener registered from an actor's code is included only when this
    /// is called on that actor: everywhere else a broadcast schedules its
    /// call, and a `P` handed to code off its actor could be called there.
    /// This holds whatever the conformance, so it does not depend on the
    /// runtime's check of isolated conformances
    /// (`extension Screen: @MainActor P`), which the Swift runtimes of Apple
    /// OS releases before the 26 generation do not make.
    public func listeners<P>(of listenerType: P.Type, isolation: isolated (any Actor)? = #isolation) -> [P] {
        var context = DeliveryContext(isolation: isolation)
        let members = storage.withLock { $0.members(of: P.self, in: &context) }
        var listeners: [P] = []
        for member in members {
            guard let object = member.entry.liveObject else { continue }
            if let actor = member.entry.isolation, !context.isRunning(on: actor) { continue }
            _ = member.withListener(object, as: P.self, in: &context) { listeners.append($0) }
        }
        return listeners
    }

    /// The number of live listeners a broadcast to `listenerType` would call
    /// or schedule a call for.
    public func listenerCount<P>(of listenerType: P.Type, isolation: isolated (any Actor)? = #isolation) -> Int {
        var context = DeliveryContext(isolation: isolation)
        let members = storage.withLock { $0.members(of: P.self, in: &context) }
        return members.reduce(into: 0) { count, member in
            if member.entry.liveObject != nil { count += 1 }
        }
    }

    /// The number of live registrations, whatever their listeners conform to.
    ///
    /// Closure handlers and event streams count (each is a listener object),
    /// and an object registered both with `addListener` and through a
    /// ``ListenerRegistration`` counts once for each. To count the listeners
    /// a broadcast would reach, ask ``listenerCount(of:isolation:)``.
    public var registrationCount: Int {
        storage.withLock { $0.table.liveEntries.count }
    }

    // MARK: - Registration internals

    /// Adds `entry` and, if asked, replays the sticky broadcasts it matches.
    ///
    /// The sticky broadcasts are read under the same lock that adds the
    /// entry, so each one reaches the listener exactly once: either it was
    /// made before (and is replayed) or after (and is delivered live). Replays
    /// that must run on the listener's actor are also scheduled under that
    /// lock, ahead of any live broadcast that reaches the listener; replays
    /// that can run here run after the lock is released.
    func register(_ entry: ListenerEntry, receivingStickyBroadcasts: Bool, from isolation: (any Actor)?) {
        var context = DeliveryContext(isolation: isolation)
        let replaysHere = storage.withLock { storage -> [StickyBroadcast] in
            guard storage.add(entry, in: &context), receivingStickyBroadcasts else { return [] }
            var here: [StickyBroadcast] = []
            for sticky in storage.stickyBroadcasts where entry.listens(to: sticky.protocolID) {
                if let actor = sticky.actorToScheduleOn(for: entry, in: &context) {
                    sticky.schedule(self, entry, actor)
                } else {
                    here.append(sticky)
                }
            }
            return here
        }
        for sticky in replaysHere {
            sticky.replay(self, entry, &context)
        }
    }

    func unregister(_ key: EntryKey) {
        _ = storage.withLock { $0.remove(key) }
    }

    /// Unregisters `entry` if it is still the one registered under its key.
    ///
    /// A single-protocol registration that stops is remembered, so that
    /// ``deliveryExplanation(for:to:isolation:)`` can say so.
    func unregister(_ entry: ListenerEntry) {
        let key = EntryKey(object: entry.id, onlyProtocol: entry.onlyProtocol)
        storage.withLock { storage in
            guard storage.remove(key, ifEntryIs: entry) != nil, entry.onlyProtocol != nil else { return }
            storage.noteStopped(entry)
        }
    }
}

extension Broadcaster: CustomDebugStringConvertible {
    /// The live listeners' types in registration order, with the actor each is
    /// called on, for example
    /// `Broadcaster(2 listeners: FeedController, Screen @MainActor)`.
    public var debugDescription: String {
        let entries = storage.withLock { $0.table.liveEntries }
        let names = entries.compactMap { entry -> String? in
            guard let object = entry.object else { return nil }
            var name = String(describing: type(of: object))
            if let actor = entry.isolation {
                name += actor === MainActor.shared ? " @MainActor" : " @\(type(of: actor))"
            }
            if entry.onlyProtocol != nil { name += " (one protocol)" }
            return name
        }
        let noun = names.count == 1 ? "listener" : "listeners"
        return "Broadcaster(\(names.count) \(noun)\(names.isEmpty ? "" : ": ")\(names.joined(separator: ", ")))"
    }
}

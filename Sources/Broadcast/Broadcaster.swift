import Synchronization

/// Delivers typed broadcasts to the listeners that conform to a protocol.
///
/// A listener is any class instance. It registers once, is held weakly, and
/// receives every broadcast made to a protocol it conforms to, as a typed call:
///
/// ```swift
/// protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }
///
/// extension Broadcaster {
///     func postCreated(_ post: Post) {
///         broadcast(to: PostCreationListener.self) { $0.postCreated(post) }
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

    private let storage = Mutex(BroadcasterStorage())
    private let mailboxes: ActorMailboxes

    /// Creates a broadcaster with no listeners.
    public init() {
        mailboxes = ActorMailboxes()
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
    /// - Parameters:
    ///   - listener: The object to call. A value type boxed as `AnyObject`
    ///     (a struct, or the Foundation objects that numbers and strings bridge
    ///     to) would be released at once and never called, so it is refused.
    ///   - isolation: The actor the listener is called on; defaults to the
    ///     caller's.
    /// - Returns: `true` if `listener` is registered when the call returns;
    ///   `false` if it was refused (a one-time message names its type).
    @discardableResult
    public func addListener(_ listener: AnyObject, isolation: isolated (any Actor)? = #isolation) -> Bool {
        guard ListenerValidation.accepts(listener) else { return false }
        let entry = ListenerEntry(object: listener, isolation: isolation, onlyProtocol: nil)
        _ = storage.withLock { $0.add(entry) }
        return true
    }

    /// Unregisters `listener`. Removing an object that is not registered does
    /// nothing.
    ///
    /// Once this returns, no broadcast that starts afterwards calls `listener`,
    /// nor does the rest of a broadcast in flight on this thread. A call that
    /// another thread has already begun may still finish.
    public func removeListener(_ listener: AnyObject) {
        _ = storage.withLock { $0.remove(EntryKey(object: ObjectIdentifier(listener), onlyProtocol: nil)) }
    }

    /// The live listeners that conform to `listenerType`, in registration
    /// order.
    ///
    /// A listener whose conformance is isolated to its actor
    /// (`extension Screen: @MainActor P`) can only be seen as a `P` on that
    /// actor, so it is included only when this is called there.
    public func listeners<P>(of listenerType: P.Type) -> [P] {
        let members = storage.withLock { $0.members(of: P.self) }
        return members.compactMap { $0.liveObject as? P }
    }

    /// The number of live listeners a broadcast to `listenerType` would call
    /// or schedule a call for.
    public func listenerCount<P>(of listenerType: P.Type) -> Int {
        let members = storage.withLock { $0.members(of: P.self) }
        return members.reduce(into: 0) { count, entry in
            if entry.liveObject != nil { count += 1 }
        }
    }

    /// The number of live listeners, whatever they conform to.
    public var listenerCount: Int {
        storage.withLock { $0.table.liveEntries.count }
    }

    // MARK: - Broadcasting

    /// Calls `deliver` with every live listener that conforms to
    /// `listenerType`, in registration order.
    ///
    /// Listeners with no actor are called here, on the calling thread, before
    /// this returns. A listener registered on an actor is called here too if
    /// the broadcast runs on that actor; otherwise its call is scheduled on
    /// that actor, behind the calls scheduled before it. Use
    /// ``broadcastAndWait(to:isolation:_:)`` to wait for scheduled calls.
    ///
    /// - Parameters:
    ///   - listenerType: The protocol (or class) listeners must conform to.
    ///   - isolation: Where the broadcast runs; leave the default.
    ///   - deliver: Makes the typed call, typically `{ $0.postCreated(post) }`.
    ///     It must be `@Sendable` because it may run on another actor.
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func broadcast<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) -> Int {
        send(to: P.self, from: isolation, actorOverride: nil, deliver, completion: nil)
    }

    /// Calls `deliver` on the main actor with every live listener that
    /// conforms to `listenerType`, whatever actor each registered from.
    ///
    /// Use it for protocols whose requirements are main-actor isolated
    /// (`@MainActor protocol KeyboardListener`), and for events that UI code
    /// must only see on the main thread. Made on the main actor, the calls run
    /// before this returns; made anywhere else, they are scheduled on the main
    /// actor.
    ///
    /// - Returns: The number of calls made or scheduled.
    @discardableResult
    public func broadcastOnMainActor<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) -> Int {
        send(to: P.self, from: isolation, actorOverride: MainActor.shared, Self.mainActorCall(deliver), completion: nil)
    }

    /// Broadcasts like ``broadcast(to:isolation:_:)`` and returns once every
    /// call of this broadcast has run, including those scheduled on actors.
    ///
    /// - Returns: The number of calls made.
    @discardableResult
    public func broadcastAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        await withCheckedContinuation { continuation in
            _ = send(to: P.self, from: isolation, actorOverride: nil, deliver) { made in
                continuation.resume(returning: made)
            }
        }
    }

    /// Broadcasts like ``broadcastOnMainActor(to:isolation:_:)`` and returns
    /// once every call has run.
    ///
    /// - Returns: The number of calls made.
    @discardableResult
    public func broadcastOnMainActorAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) async -> Int {
        let call = Self.mainActorCall(deliver)
        return await withCheckedContinuation { continuation in
            _ = send(to: P.self, from: isolation, actorOverride: MainActor.shared, call) { made in
                continuation.resume(returning: made)
            }
        }
    }

    /// Returns once every call scheduled on an actor before this call has run.
    ///
    /// A barrier for code (and tests) that broadcasts through synchronous
    /// typed methods: `broadcaster.postCreated(post)` then
    /// `await broadcaster.waitForScheduledDeliveries()`.
    public func waitForScheduledDeliveries() async {
        for mailbox in mailboxes.all() {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                mailbox.enqueue { _ in continuation.resume() }
            }
        }
    }

    // MARK: - Internals

    /// The one delivery path behind every broadcast method.
    ///
    /// - Parameter completion: if given, called once with the number of calls
    ///   made, after the scheduled ones have run too.
    private func send<P>(
        to _: P.Type,
        from isolation: (any Actor)?,
        actorOverride: (any Actor)?,
        _ deliver: @escaping @Sendable (P) -> Void,
        completion: (@Sendable (Int) -> Void)?
    ) -> Int {
        let members = storage.withLock { $0.members(of: P.self) }
        var context = DeliveryContext(isolation: isolation)
        var scheduled = ScheduledDeliveries()
        let count = Delivery.deliver(
            to: members, as: P.self, context: &context, actorOverride: actorOverride,
            scheduled: &scheduled, deliver)
        if scheduled.isEmpty {
            completion?(count)
            return count
        }
        let tally = completion.map {
            DeliveryTally(madeSoFar: count - scheduled.entryCount, pendingBatches: scheduled.batches.count, completion: $0)
        }
        for batch in scheduled.batches {
            let entries = batch.entries
            mailboxes.mailbox(for: batch.actor).enqueue { _ in
                let made = Delivery.deliverScheduled(entries, as: P.self, nonconforming: { type in
                    self.storage.withLock { $0.recordNonconformance(of: type, to: P.self) }
                }, deliver)
                tally?.batchFinished(made: made)
            }
        }
        return count
    }

    /// Wraps a main-actor call so it can travel as a plain `@Sendable` one.
    /// Only ever invoked on the main actor: the delivery path runs it either
    /// where ``DeliveryContext`` found the main actor, or in the main actor's
    /// mailbox.
    private static func mainActorCall<P>(_ deliver: @escaping @MainActor @Sendable (P) -> Void) -> @Sendable (P) -> Void {
        { listener in
            // Safe: this closure only runs on the main actor (see above), where
            // the listener was just obtained, so it never crosses isolation;
            // `assumeIsolated` checks that claim at run time.
            nonisolated(unsafe) let listener = listener
            MainActor.assumeIsolated { deliver(listener) }
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

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
/// @MainActor final class FeedController: @MainActor PostCreationListener {
///     private var titles: [String] = []
///     init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
///     @MainActor func postCreated(_ post: Post) { titles.append(post.title) }  // typed, no userInfo
/// }
/// ```
///
/// Where a listener runs is written where it registers: without `calledOn:`
/// a listener is `Sendable` and is called where the broadcast runs (this one's
/// conformance is isolated to the main actor, so its calls go there); with
/// `calledOn: actor`, any listener is called only on that actor.
///
/// Semantics (each pinned by a test; see <doc:DeliverySemantics>):
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
/// - **Threads.** Every method may be called from any thread, also from a
///   listener, a handler or the `deinit` of anything the user owns. No lock is
///   held while a listener runs or while a user's object is released.
/// - **Actors.** A listener registered with `calledOn: actor` is only ever
///   called on that actor: at once when the broadcast is made there, otherwise
///   through a scheduled delivery. A `Sendable` listener registered without it
///   is called where the broadcast runs whenever its conformance holds there;
///   a conformance isolated to an actor sends the call to the actor it
///   registered from.
/// - **State.** Once a sticky broadcast has reached a listener, an older one
///   to the same protocol never reaches it afterwards.
public final class Broadcaster: Sendable {
    /// A broadcaster for the whole process.
    ///
    /// Convenient for apps; code under test usually injects its own instance
    /// instead, so tests don't share listeners.
    public static let shared = Broadcaster()

    /// The one lock and everything behind it.
    let storage = StorageLock()
    /// Deliveries scheduled on actors, one FIFO per actor.
    let mailboxes = ActorMailboxes()
    /// Receives diagnostics (debug builds); nil writes them to standard error.
    let diagnosticHandler: (@Sendable (BroadcastDiagnostic) -> Void)?
    #if DEBUG
        /// Debug builds only: finds listeners whose conformance is isolated to
        /// the main actor but that registered elsewhere.
        let isolatedConformanceCheck = IsolatedConformanceCheck()
    #endif

    /// Creates a broadcaster with no listeners.
    public init() {
        diagnosticHandler = nil
    }

    /// Creates a broadcaster with no listeners that hands its debug-build
    /// diagnostics to `handler` instead of writing them to standard error.
    ///
    /// For tests that check for, or deliberately make, the mistakes a
    /// ``BroadcastDiagnostic`` reports. Release builds report nothing and
    /// never call `handler`.
    ///
    /// - Parameter handler: Called once per diagnostic, with no lock held.
    public init(onDiagnostic handler: @escaping @Sendable (BroadcastDiagnostic) -> Void) {
        diagnosticHandler = handler
    }

    deinit {
        // Ends every event stream still open, outside the lock.
        let finishers = storage.withLock { storage, _ in storage.takeStreamFinishers() }
        for finish in finishers { finish() }
    }
}

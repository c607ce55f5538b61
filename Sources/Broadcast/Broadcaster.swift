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
/// @MainActor final class FeedController: @MainActor PostCreationListener {
///     private var titles: [String] = []
///     init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
///     @MainActor func postCreated(_ post: Post) { titles.append(post.title) }  // typed, no userInfo
/// }
/// ```
///
/// Where a listener runs is written where it registers: without `calledOn:`
/// a listener is `Sendable` and is called where the broadcast runs (this
/// one's conformance is isolated to the main actor, so its calls go there);
/// with `calledOn: actor`, any listener is called only on that actor. It is
/// held weakly, added once per object, and called in registration order; no
/// lock is held while it runs, so it may call back from anywhere, even a
/// `deinit`. <doc:DeliverySemantics> states every rule and the test that
/// pins it.
public final class Broadcaster: Sendable {
    /// A broadcaster for the whole process; tests usually inject their own.
    public static let shared = Broadcaster()

    let storage = StorageLock()
    let mailboxes = ActorMailboxes()
    let unsettledCalls = UnsettledCallLimit()
    /// Nil writes debug-build diagnostics to standard error.
    let diagnosticHandler: (@Sendable (BroadcastDiagnostic) -> Void)?
    /// The ``BroadcastTap``, set at most once; each delivery loads it once
    /// (``watch(_:of:sticky:)``).
    let tapSlot = AtomicLazyReference<TapBox>()
    #if DEBUG
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
        let finishers = storage.takeStreamFinishers()
        for finish in finishers { finish() }
    }
}

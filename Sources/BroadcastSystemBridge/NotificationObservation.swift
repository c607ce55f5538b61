import Foundation
import Synchronization

/// The observer bookkeeping every `NotificationCenter` bridge needs: block
/// observers for some names on one center, removed by ``stop()`` or when this
/// is released.
///
/// Blocks are added with `queue: nil`, so each runs synchronously on the
/// thread that posts, inside `post`: that is what lets a bridge deliver to a
/// main-actor listener before a main-thread `post` returns, and what lets a
/// bridge see the crossings in progress on that thread (``BridgeCrossing``).
///
/// A block that starts after ``stop()`` has returned does nothing, even if
/// the center had already picked it for a post that began before: the flag
/// is checked first. No lock is held while `receive` runs, and none is taken
/// by a block, so a center that calls blocks under its own lock cannot
/// deadlock with this one.
///
/// The tokens are guarded by an `NSLock`, not `Synchronization.Mutex`: on
/// Linux the latter is a futex ThreadSanitizer cannot see, so every test of
/// forwarding under TSan would report the token list as a race. Only `start`
/// and `stop` take the lock.
final class NotificationObservation: @unchecked Sendable {
    // @unchecked Sendable: `tokens` is only read or written while `lock` is
    // held (each token is only ever passed back to the thread-safe
    // `removeObserver`); `center` and `isActive` are immutable and
    // thread-safe.
    /// The center observed.
    let center: NotificationCenter

    /// Guards `tokens`: `start` and `stop` may race.
    private let lock = NSLock()
    /// The observer tokens; empty when not observing.
    private var tokens: [any NSObjectProtocol] = []
    /// Whether blocks should pass notifications on; read by every block,
    /// without the lock.
    private let isActive = Atomic<Bool>(false)

    init(center: NotificationCenter) {
        self.center = center
    }

    deinit {
        stop()
    }

    /// Whether the observers are installed.
    var isObserving: Bool {
        lock.withLock { !tokens.isEmpty }
    }

    /// Installs one observer per name, each calling `receive` on the posting
    /// thread; does nothing while observing.
    ///
    /// - Parameters:
    ///   - names: The names to observe.
    ///   - object: Only notifications from this sender, if given.
    ///   - receive: Called with each notification; it should hold its owner
    ///     weakly, since the center keeps it until ``stop()``.
    func start(
        observing names: [Notification.Name],
        object: AnyObject? = nil,
        receive: @escaping @Sendable (Notification) -> Void
    ) {
        lock.withLock {
            guard tokens.isEmpty else { return }
            isActive.store(true, ordering: .releasing)
            tokens = names.map { name in
                center.addObserver(forName: name, object: object, queue: nil) { [weak self] notification in
                    guard let self, self.isActive.load(ordering: .acquiring) else { return }
                    receive(notification)
                }
            }
        }
    }

    /// Removes the observers; calling it again does nothing.
    ///
    /// No block that starts after this returns passes a notification on.
    func stop() {
        let removed = lock.withLock {
            isActive.store(false, ordering: .releasing)
            defer { tokens.removeAll() }
            return tokens
        }
        for token in removed { center.removeObserver(token) }
    }
}

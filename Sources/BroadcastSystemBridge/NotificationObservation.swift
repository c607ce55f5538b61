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
/// The state is guarded by an `NSLock`, not `Synchronization.Mutex`: on
/// Linux the latter is a futex ThreadSanitizer cannot see. The lock is never
/// held while the center is called (`addObserver` and `removeObserver` may
/// run a subclass's code, which may call back here), so `start` claims the
/// start under the lock, adds the observers after it, and keeps them only if
/// no `stop` came in between.
final class NotificationObservation: @unchecked Sendable {
    // @unchecked Sendable: `tokens` and `activation` are only read or written
    // while `lock` is held; `center` is immutable and thread-safe.
    /// The center observed.
    let center: NotificationCenter

    private let lock = NSLock()
    /// The observer tokens; empty when not observing.
    private var tokens: [any NSObjectProtocol] = []
    /// The current start's switch, read by its blocks without the lock; nil when stopped.
    private var activation: Activation?

    init(center: NotificationCenter) {
        self.center = center
    }

    deinit {
        stop()
    }

    /// Whether observers are installed, or being installed.
    var isObserving: Bool {
        lock.withLock { activation != nil }
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
        let claimed = lock.withLock { () -> Activation? in
            guard activation == nil else { return nil }
            let claimed = Activation()
            activation = claimed
            return claimed
        }
        guard let claimed else { return }
        let added = names.map { name in
            center.addObserver(forName: name, object: object, queue: nil) { notification in
                guard claimed.isActive.load(ordering: .acquiring) else { return }
                receive(notification)
            }
        }
        // Stopped meanwhile: the observers just added are removed, not kept.
        let kept = lock.withLock {
            guard activation === claimed else { return false }
            tokens = added
            return true
        }
        if !kept { for token in added { center.removeObserver(token) } }
    }

    /// Removes the observers; calling it again does nothing.
    ///
    /// No block that starts after this returns passes a notification on.
    func stop() {
        let removed = lock.withLock {
            activation?.isActive.store(false, ordering: .releasing)
            activation = nil
            defer { tokens.removeAll() }
            return tokens
        }
        for token in removed { center.removeObserver(token) }
    }
}

/// One start's switch: its blocks pass notifications on until `stop` turns
/// it off, so the blocks of a start that a `stop` overtook never do.
private final class Activation: Sendable {
    let isActive = Atomic<Bool>(true)
}

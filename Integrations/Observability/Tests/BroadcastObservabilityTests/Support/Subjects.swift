import Broadcast
import Synchronization

/// The listener protocol the tests broadcast to.
protocol SessionListener: AnyObject {
    func sessionStarted(id: Int)
}

/// A listener that counts its calls, called where the broadcast runs.
final class SessionSpy: SessionListener, Sendable {
    private let calls = Mutex(0)

    var callCount: Int { calls.withLock { $0 } }

    func sessionStarted(id: Int) {
        calls.withLock { $0 += 1 }
    }
}

/// The event type the tests post.
struct SessionEnded: Sendable {
    let id: Int
}

extension Broadcaster {
    /// A broadcast to `SessionListener`, as an app declares one.
    @discardableResult
    func sessionStarted(id: Int, sticky: Bool = false) -> Int {
        broadcast(to: SessionListener.self, with: id, sticky: sticky) { $0.sessionStarted(id: $1) }
    }
}

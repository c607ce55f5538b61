// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A Sendable listener (its state behind a lock) registers from any code, and
// so does a @Sendable handler: a server's or a test's way.
import Broadcast
import Foundation

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }
struct UserSignedIn: Sendable { let name: String }

nonisolated final class Counter: PostCreationListener, @unchecked Sendable {
    // @unchecked Sendable: `count` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var count = 0
    func postCreated(_ title: String) { lock.withLock { count += 1 } }
}

nonisolated func register(_ counter: Counter, with broadcaster: Broadcaster) /*CONTEXT*/ -> [BroadcastToken] {
    broadcaster.addListener(counter)
    broadcaster.addListener(counter as any AnyObject & Sendable, receivingSticky: true)
    let registrations = ListenerRegistrations(broadcaster: broadcaster)
    registrations.add(counter, for: PostCreationListener.self)
    registrations.addHandler(for: UserSignedIn.self) { _ in counter.postCreated("signed in") }
    registrations.addHandler(for: UserSignedIn.self, owner: counter) { counter, _ in counter.postCreated("signed in") }
    _ = ListenerRegistration(counter, for: PostCreationListener.self, on: broadcaster)
    return [
        broadcaster.addHandler(for: UserSignedIn.self) { event in counter.postCreated(event.name) },
        broadcaster.addHandler(for: UserSignedIn.self, owner: counter) { counter, _ in
            counter.postCreated("signed in")
        },
        broadcaster.addAwaitedHandler(for: UserSignedIn.self) { event in counter.postCreated(event.name) },
    ]
}

// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A Sendable listener (its state in a Mutex) registers from any code, and
// a @Sendable handler with `isolation: nil`: a server's or a test's way.
import Broadcast
import Synchronization

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }
struct UserSignedIn: Sendable { let name: String }

nonisolated final class Counter: PostCreationListener, Sendable {
    private let count = Mutex(0)
    func postCreated(_ title: String) { count.withLock { $0 += 1 } }
}

nonisolated func register(_ counter: Counter, with broadcaster: Broadcaster) -> [BroadcastToken] {
    broadcaster.addListener(counter)
    broadcaster.addListener(counter as any AnyObject & Sendable)
    let registrations = ListenerRegistrations(broadcaster: broadcaster)
    registrations.add(counter, for: PostCreationListener.self)
    let signIns = Mutex<[String]>([])
    return [
        broadcaster.addHandler(for: UserSignedIn.self, isolation: nil) { event in
            signIns.withLock { $0.append(event.name) }
        },
        broadcaster.addHandler(for: UserSignedIn.self, owner: counter, isolation: nil) { counter, _ in
            counter.postCreated("signed in")
        },
        broadcaster.addAwaitedHandler(for: UserSignedIn.self, isolation: nil) { event in
            signIns.withLock { $0.append(event.name) }
        },
    ]
}

// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A listener that is not Sendable registers from its actor's code: a
// @MainActor initializer, an actor's method, top-level code. It is then
// only called on that actor.
import Broadcast

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }
struct UserSignedIn: Sendable { let name: String }

nonisolated final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

@MainActor final class FeedScreen {
    let counter = Counter()
    let registrations: ListenerRegistrations
    var names: [String] = []
    var token: BroadcastToken?

    init(broadcaster: Broadcaster) {
        registrations = ListenerRegistrations(broadcaster: broadcaster)
        broadcaster.addListener(counter)
        registrations.add(counter, for: PostCreationListener.self, lifespan: .visible)
        token = broadcaster.addHandler(for: UserSignedIn.self) { event in self.names.append(event.name) }
    }

    func viewWillAppear() { registrations.start(.visible) }
}

actor Library {
    let counter = Counter()
    var token: BroadcastToken?

    func start(with broadcaster: Broadcaster) {
        broadcaster.addListener(counter)
        token = broadcaster.addAwaitedHandler(for: UserSignedIn.self) { _ in self.counter.count += 1 }
    }
}

let broadcaster = Broadcaster()
let counter = Counter()
broadcaster.addListener(counter)
let anyListener: AnyObject = counter
broadcaster.addListener(anyListener)

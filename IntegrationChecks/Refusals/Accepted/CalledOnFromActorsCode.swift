// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// Any listener or handler registers with the actor that calls it named
// (`calledOn:`), from that actor's code: a @MainActor initializer, an actor's
// method. It is then only ever called on that actor.
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
    let registration: ListenerRegistration
    var names: [String] = []
    var tokens: [BroadcastToken] = []

    init(broadcaster: Broadcaster) {
        registrations = ListenerRegistrations(broadcaster: broadcaster)
        registration = ListenerRegistration(
            counter, for: PostCreationListener.self, calledOn: MainActor.shared, on: broadcaster)
        broadcaster.addListener(counter, calledOn: MainActor.shared, receivingSticky: true)
        registrations.add(counter, for: PostCreationListener.self, calledOn: MainActor.shared, lifespan: .visible)
        registrations.addHandler(for: UserSignedIn.self, calledOn: MainActor.shared) { [weak self] event in
            self?.names.append(event.name)
        }
        tokens.append(
            broadcaster.addHandler(for: UserSignedIn.self, calledOn: MainActor.shared) { [weak self] event in
                self?.names.append(event.name)
            })
        tokens.append(
            broadcaster.addHandler(for: UserSignedIn.self, owner: self, calledOn: MainActor.shared) { screen, event in
                screen.names.append(event.name)
            })
    }

    func viewWillAppear() { registrations.start(.visible) }
}

actor Library {
    let counter = Counter()
    var token: BroadcastToken?

    func start(with broadcaster: Broadcaster) {
        broadcaster.addListener(counter, calledOn: self)
        token = broadcaster.addAwaitedHandler(for: UserSignedIn.self, calledOn: self) { _ in self.counter.count += 1 }
    }
}

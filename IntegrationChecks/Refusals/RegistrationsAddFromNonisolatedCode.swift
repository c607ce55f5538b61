// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: shows: or declare it from its actor's code.
// Swift5: compiles
//
// `ListenerRegistrations.add` of a listener that is not Sendable, and
// `addHandler` of a closure that is not @Sendable, from code isolated to no
// actor.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }
struct UserSignedIn: Sendable { let name: String }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func declare(_ counter: Counter, in registrations: ListenerRegistrations) {
    registrations.add(counter, for: PostCreationListener.self, lifespan: .visible)
    registrations.addHandler(for: UserSignedIn.self) { _ in counter.count += 1 }
}

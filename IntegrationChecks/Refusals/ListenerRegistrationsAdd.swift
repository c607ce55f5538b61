// Swift6: error: type 'Counter' does not conform to the 'Sendable' protocol
// Swift6: error: type 'AnyObject' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// `ListenerRegistrations.add` of a listener that is not Sendable.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func declare(_ counter: Counter, in registrations: ListenerRegistrations) /*CONTEXT*/ {
    registrations.add(counter, for: PostCreationListener.self, lifespan: .visible)
}

nonisolated func declare(_ listener: AnyObject, in registrations: ListenerRegistrations) /*CONTEXT*/ {
    registrations.add(listener, for: PostCreationListener.self)
}

// Swift6: error: type 'Counter' does not conform to the 'Sendable' protocol
// Swift6: error: type 'AnyObject' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// A declared registration of a listener that is not Sendable: `start()` may
// run anywhere, so the declaration names the actor (`calledOn:`).
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func declare(_ counter: Counter, on broadcaster: Broadcaster) /*CONTEXT*/ -> ListenerRegistration {
    ListenerRegistration(counter, for: PostCreationListener.self, on: broadcaster)
}

nonisolated func declare(_ listener: AnyObject, on broadcaster: Broadcaster) /*CONTEXT*/ -> ListenerRegistration {
    ListenerRegistration(listener, for: PostCreationListener.self, on: broadcaster)
}

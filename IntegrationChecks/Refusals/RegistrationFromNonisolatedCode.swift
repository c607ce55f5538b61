// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: shows: or declare the registration from its actor's code.
// Swift5: compiles
//
// A declared registration of a listener that is not Sendable, from code
// isolated to no actor; `start()` may later run anywhere, so the
// declaration is where the actor is proved.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func declare(_ counter: Counter, on broadcaster: Broadcaster) -> ListenerRegistration {
    ListenerRegistration(counter, for: PostCreationListener.self, on: broadcaster)
}

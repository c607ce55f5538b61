// Swift6: error: type 'Counter' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// From an actor's code too: a listener that is not Sendable names the actor
// that calls it (`calledOn:`), so that where it runs is written at the call.
import Broadcast

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

nonisolated final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

@MainActor func register(_ counter: Counter, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(counter)
}

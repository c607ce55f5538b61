// Swift6: error: type 'Counter' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// A listener that is not Sendable, registered from code isolated to no
// actor: every broadcasting thread could call it at once.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func register(_ counter: Counter, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(counter, receivingSticky: true)
}

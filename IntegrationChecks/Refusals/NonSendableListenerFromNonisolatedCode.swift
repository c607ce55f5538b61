// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: error: call to actor-isolated instance method 'addListener(_:receivingSticky:isolation:fileID:line:)' in a synchronous nonisolated context
// Swift6: shows: Make the listener @MainActor,
// Swift5: compiles
//
// A listener that is not Sendable, registered from code isolated to no
// actor: every broadcasting thread would call it.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func register(_ counter: Counter, with broadcaster: Broadcaster) {
    broadcaster.addListener(counter)
}

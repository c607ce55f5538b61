// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift5: compiles
//
// A nonisolated async function runs on whatever its caller is isolated to,
// which may be no actor: refused.
import Broadcast

protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

nonisolated func register(_ counter: Counter, with broadcaster: Broadcaster) async {
    broadcaster.addListener(counter)
}

// Swift6: error: capture of 'greeter' with non-Sendable type 'Greeter' in a '@Sendable' closure
// Swift5: compiles
//
// A handler that is not @Sendable: it would run on every posting thread.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Greeter {
    var greeted: [String] = []
}

nonisolated func register(_ greeter: Greeter, with broadcaster: Broadcaster) /*CONTEXT*/ -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, receivingSticky: true) { event in greeter.greeted.append(event.name) }
}

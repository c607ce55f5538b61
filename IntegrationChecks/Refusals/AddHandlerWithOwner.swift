// Swift6: error: type 'Greeter' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// The owner form with an owner that is not Sendable.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Greeter {
    var greeted: [String] = []
}

nonisolated func register(_ greeter: Greeter, with broadcaster: Broadcaster) /*CONTEXT*/ -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, owner: greeter) { owner, event in owner.greeted.append(event.name) }
}

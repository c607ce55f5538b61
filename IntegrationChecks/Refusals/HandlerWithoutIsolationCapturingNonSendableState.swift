// Swift6: error: capture of 'greeter' with non-Sendable type 'Greeter' in a '@Sendable' closure
// Swift5: compiles
//
// `isolation: nil` takes a @Sendable handler: it cannot capture state that is
// not Sendable.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Greeter {
    var greeted: [String] = []
}

nonisolated func register(_ greeter: Greeter, with broadcaster: Broadcaster) -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, isolation: nil) { event in greeter.greeted.append(event.name) }
}

// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: error: call to actor-isolated instance method 'addHandler(for:receivingSticky:isolation:handler:)' in a synchronous nonisolated context
// Swift6: shows: or pass `isolation: nil` and a @Sendable handler.
// Swift5: compiles
//
// A closure that is not @Sendable, registered from code isolated to no actor.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Greeter {
    var greeted: [String] = []
}

nonisolated func register(_ greeter: Greeter, with broadcaster: Broadcaster) -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self) { event in greeter.greeted.append(event.name) }
}

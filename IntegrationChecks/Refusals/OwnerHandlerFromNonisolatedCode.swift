// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: shows: or pass `isolation: nil`, a Sendable owner and a @Sendable handler.
// Swift5: compiles
//
// The owner form, from code isolated to no actor, with an owner that is not
// Sendable.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Greeter {
    var greeted: [String] = []
    var token: BroadcastToken?

    nonisolated func start(with broadcaster: Broadcaster) {
        token = broadcaster.addHandler(for: UserSignedIn.self, owner: self) { owner, event in
            owner.greeted.append(event.name)
        }
    }
}

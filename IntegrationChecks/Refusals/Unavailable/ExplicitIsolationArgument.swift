// Swift6: error: 'addHandler(for:receivingSticky:isolation:handler:)' is unavailable
// Swift6: note: obsoleted in Swift 6
// Swift5: compiles
//
// A 1.0 call that passed `isolation:` to a handler explicitly: in Swift 6
// the handler names its actor with `calledOn:` instead.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

@MainActor final class Screen {
    var greeting = ""
}

@MainActor func register(_ screen: Screen, with broadcaster: Broadcaster) /*CONTEXT*/ -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, isolation: MainActor.shared) { event in
        screen.greeting = "Hello, \(event.name)"
    }
}

// Swift6: error: call to main actor-isolated instance method 'addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)' in a synchronous nonisolated context
// Swift6: error: main actor-isolated property 'greeting' can not be mutated from a nonisolated context
// Swift5: error: call to main actor-isolated instance method 'addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)' in a synchronous nonisolated context
//
// A `calledOn:` registration written in code isolated to no actor: the
// registering code runs on the actor it names, so it is written there (a
// main-actor method of the screen; Accepted/CalledOnFromActorsCode.swift).
import Broadcast

struct UserSignedIn: Sendable { let name: String }

@MainActor final class Screen {
    var greeting = ""
}

nonisolated func register(_ screen: Screen, with broadcaster: Broadcaster) -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, calledOn: MainActor.shared) { event in
        screen.greeting = "Hello, \(event.name)"
    }
}

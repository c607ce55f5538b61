// Swift6: error: main actor-isolated property 'greeting' can not be mutated from a Sendable closure
// AppDefaults: error: main actor-isolated property 'greeting' can not be mutated from a Sendable closure
// Swift5: compiles
//
// A handler registered from main-actor code that sets the screen's state: it
// is @Sendable and runs where the post runs, so it names the main actor
// (`calledOn: MainActor.shared`; Accepted/CalledOnFromActorsCode.swift).
import Broadcast

struct UserSignedIn: Sendable { let name: String }

@MainActor final class Screen {
    var greeting = ""
    var token: BroadcastToken?

    func start(with broadcaster: Broadcaster) /*CONTEXT*/ {
        token = broadcaster.addHandler(for: UserSignedIn.self) { [weak self] event in
            self?.greeting = "Hello, \(event.name)"
        }
    }
}

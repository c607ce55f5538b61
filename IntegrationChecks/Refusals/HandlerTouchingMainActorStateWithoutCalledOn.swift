// Swift6: error: call to main actor-isolated instance method 'show' in a synchronous nonisolated context
// AppDefaults: error: call to main actor-isolated instance method 'show' in a synchronous nonisolated context
// Swift5: compiles
//
// A handler is @Sendable and runs where the post runs, even when registered
// from main-actor code: one that updates a screen names the main actor
// (`calledOn: MainActor.shared`; Accepted/CalledOnFromActorsCode.swift).
import Broadcast

struct UserSignedIn: Sendable { let name: String }

@MainActor final class Screen {
    var greeting = ""
    var token: BroadcastToken?

    func show(_ name: String) { greeting = "Hello, \(name)" }

    func start(with broadcaster: Broadcaster) /*CONTEXT*/ {
        token = broadcaster.addHandler(for: UserSignedIn.self) { [weak self] event in self?.show(event.name) }
    }
}

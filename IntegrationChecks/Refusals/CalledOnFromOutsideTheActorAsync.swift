// Swift6: error: actor-isolated instance method 'addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)' cannot be called from outside of the actor
// Swift5: error: actor-isolated instance method 'addHandler(for:calledOn:receivingSticky:consumingSticky:handler:)' cannot be called from outside of the actor
//
// The same registration in an `async` function isolated to no actor (a
// Swift Testing test is one): written without `await`, the call itself is
// refused. (With `await` the call compiles, and a closure that changes the
// screen is refused as in CalledOnFromOutsideTheActor.swift: write the
// registration in the actor's code.)
import Broadcast

struct UserSignedIn: Sendable { let name: String }

nonisolated func register(with broadcaster: Broadcaster) async -> BroadcastToken {
    broadcaster.addHandler(for: UserSignedIn.self, calledOn: MainActor.shared) { event in
        print("Hello, \(event.name)")
    }
}

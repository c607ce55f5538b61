// Swift6: error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
// Swift5: compiles
//
// `ListenerRegistrations.addHandler` with a handler that is not @Sendable.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Counter {
    var count = 0
}

nonisolated func declare(_ counter: Counter, in registrations: ListenerRegistrations) /*CONTEXT*/ {
    registrations.addHandler(for: UserSignedIn.self, lifespan: .visible) { _ in counter.count += 1 }
}

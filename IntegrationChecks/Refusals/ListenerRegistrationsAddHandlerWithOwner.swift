// Swift6: error: type 'Counter' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// `ListenerRegistrations.addHandler` with an owner that is not Sendable.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

final class Counter {
    var count = 0
}

nonisolated func declare(_ counter: Counter, in registrations: ListenerRegistrations) /*CONTEXT*/ {
    registrations.addHandler(for: UserSignedIn.self, owner: counter) { counter, _ in counter.count += 1 }
}

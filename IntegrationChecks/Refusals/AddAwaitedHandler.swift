// Swift6: error: capture of 'store' with non-Sendable type 'Store' in a '@Sendable' closure
// Swift5: compiles
//
// An awaited handler that is not @Sendable: concurrent posts would run it at
// once.
import Broadcast

struct UserSignedOut: Sendable {}

final class Store {
    var items: [String] = []
}

nonisolated func register(_ store: Store, with broadcaster: Broadcaster) /*CONTEXT*/ -> BroadcastToken {
    broadcaster.addAwaitedHandler(for: UserSignedOut.self) { _ in store.items.removeAll() }
}

// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: shows: or pass `isolation: nil` and a @Sendable handler.
// Swift5: compiles
//
// An awaited handler that is not @Sendable, registered from code isolated to
// no actor: concurrent posts would run it at once.
import Broadcast

struct UserSignedOut: Sendable {}

final class Store {
    var items: [String] = []
}

nonisolated func register(_ store: Store, with broadcaster: Broadcaster) -> BroadcastToken {
    broadcaster.addAwaitedHandler(for: UserSignedOut.self) { _ in store.items.removeAll() }
}

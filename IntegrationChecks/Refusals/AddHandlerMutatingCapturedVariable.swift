// Swift6: error: mutation of captured var 'count' in concurrently-executing code
// Swift5: compiles
//
// A handler that changes a captured variable: concurrent posts would race.
import Broadcast

struct UserSignedIn: Sendable { let name: String }

nonisolated func register(with broadcaster: Broadcaster) /*CONTEXT*/ -> BroadcastToken {
    var count = 0
    return broadcaster.addHandler(for: UserSignedIn.self) { _ in count += 1 }
}

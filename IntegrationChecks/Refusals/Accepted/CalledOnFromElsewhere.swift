// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A Sendable listener kept on an actor of your own, registered from code that
// runs elsewhere: the call is awaited, as any call into that actor is.
import Broadcast

nonisolated protocol CacheInvalidationListener: AnyObject { func invalidate(_ key: String) }

actor Worker {}

nonisolated final class CacheIndex: CacheInvalidationListener, Sendable {
    func invalidate(_ key: String) {}
}

nonisolated func register(_ index: CacheIndex, on worker: Worker, with broadcaster: Broadcaster) async {
    await broadcaster.addListener(index, calledOn: worker)
}

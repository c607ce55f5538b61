// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A listener kept on an actor of your own, registered from code that runs
// elsewhere: a Sendable one is handed over from any code (/*CONTEXT*/ checks a
// synchronous and an async function); one that is not Sendable is registered
// by awaiting the actor, as any call into it is.
import Broadcast

nonisolated protocol CacheInvalidationListener: AnyObject { func invalidate(_ key: String) }

actor Worker {}

nonisolated final class CacheIndex: CacheInvalidationListener, Sendable {
    func invalidate(_ key: String) {}
}

nonisolated final class Journal: CacheInvalidationListener {
    var keys: [String] = []
    func invalidate(_ key: String) { keys.append(key) }
}

nonisolated func register(_ index: CacheIndex, on worker: Worker, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(index, calledOn: worker)
    ListenerRegistrations(broadcaster: broadcaster).add(index, for: CacheInvalidationListener.self, calledOn: worker)
}

nonisolated func register(on worker: Worker, with broadcaster: Broadcaster) async {
    await broadcaster.addListener(Journal(), calledOn: worker)
}

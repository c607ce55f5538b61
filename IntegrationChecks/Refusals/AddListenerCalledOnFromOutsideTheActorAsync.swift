// Swift6: error: actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' cannot be called from outside of the actor
// AppDefaults: error: actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' cannot be called from outside of the actor
// Swift5: error: actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' cannot be called from outside of the actor
//
// A listener that is not Sendable, registered with `calledOn:` from an
// `async` function isolated to no actor, without `await`: the registration
// runs on the actor it names, so it is awaited (with a listener made for it;
// Accepted/CalledOnFromElsewhere.swift), or written in the actor's code.
import Broadcast

nonisolated protocol CacheInvalidationListener: AnyObject { func invalidate(_ key: String) }

actor Worker {}

nonisolated final class Journal: CacheInvalidationListener {
    var keys: [String] = []
    func invalidate(_ key: String) { keys.append(key) }
}

nonisolated func register(on worker: Worker, with broadcaster: Broadcaster) async {
    broadcaster.addListener(Journal(), calledOn: worker)
}

// Swift6: error: conformance of 'Indexer' to protocol 'PostCreationListener' crosses into actor-isolated code and can cause data races
// Swift6: note: actor-isolated instance method 'postCreated' cannot satisfy nonisolated requirement
// AppDefaults: error: conformance of 'Indexer' to protocol 'PostCreationListener' crosses into actor-isolated code and can cause data races
// Swift5: error: conformance of 'Indexer' to protocol 'PostCreationListener' crosses into actor-isolated code and can cause data races
//
// An actor conforming to a listener protocol whose requirement is
// synchronous: the broadcaster may call the requirement on any thread, and
// the actor's method runs only on the actor. The actor owns a listener
// registered with `calledOn: self` (Accepted/ActorAsyncInitRegistersItsListener.swift),
// consumes `events(of:)`, or conforms to a protocol whose requirement is
// `async`: the article "Actors That Listen", whose forms its tests compile.
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

actor Indexer: PostCreationListener {
    var titles: [String] = []
    func postCreated(_ post: Post) { titles.append(post.title) }
}

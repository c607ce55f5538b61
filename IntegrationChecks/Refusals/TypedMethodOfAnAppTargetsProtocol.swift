// AppDefaults: error: call to main actor-isolated instance method 'postCreated' in a synchronous nonisolated context
// Swift6: compiles
//
// "Client Configurations": in an app target (default isolation MainActor) a
// protocol not marked `nonisolated` has main-actor requirements, which the
// broadcast's `@Sendable` closure cannot call.
import Broadcast

struct Post: Sendable { let title: String }

protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

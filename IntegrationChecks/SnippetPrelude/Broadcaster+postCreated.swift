// The typed broadcast of Getting Started.
import Broadcast

nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

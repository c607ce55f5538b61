// The typed broadcast of Getting Started.
import Broadcast

nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self) { $0.postCreated(post) }
    }
}

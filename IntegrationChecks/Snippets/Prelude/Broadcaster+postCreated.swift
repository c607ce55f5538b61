// The typed broadcast of the README's quick start.
import Broadcast

nonisolated extension Broadcaster {
    @discardableResult
    func postCreated(_ post: Post) -> Int {
        broadcast(to: PostCreationListener.self) { $0.postCreated(post) }
    }
}

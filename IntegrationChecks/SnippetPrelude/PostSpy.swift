// The spy of Testing with Broadcast: records the titles it receives, from any thread.
import Synchronization

nonisolated final class PostSpy: PostCreationListener, Sendable {
    private let titles = Mutex<[String]>([])
    var received: [String] { titles.withLock { $0 } }
    func postCreated(_ post: Post) { titles.withLock { $0.append(post.title) } }
}

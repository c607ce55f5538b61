// The spy of Testing with Broadcast: records the titles it receives, from any thread.
import BroadcastTesting

nonisolated final class PostSpy: PostCreationListener, Sendable {
    let titles = BroadcastRecorder<String>()
    func postCreated(_ post: Post) { titles.record(post.title) }
}

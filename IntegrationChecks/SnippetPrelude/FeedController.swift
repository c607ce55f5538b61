// A listener of the README's quick start.
import Broadcast

final class FeedController: PostCreationListener, Sendable {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
    func postCreated(_ post: Post) { print("feed: new post", post.title) }
}

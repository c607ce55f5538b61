// A listener of the README's quick start.
import Broadcast

@MainActor final class FeedController: @MainActor PostCreationListener {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
    @MainActor func postCreated(_ post: Post) { print("feed: new post", post.title) }
}

// The main-actor screen of Getting Started, listening through an isolated conformance.
import Broadcast

@MainActor
final class FeedScreen {
    private(set) var titles: [String] = []
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
}

extension FeedScreen: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) { titles.append(post.title) }
}

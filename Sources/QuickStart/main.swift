import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated extension Broadcaster {  // your typed broadcast
    @MainActor func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

@MainActor final class FeedController {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }  // held weakly
}

extension FeedController: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) { print("feed: new post", post.title) }
}

@MainActor final class UnreadBadge {
    private var unread = 0
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
}

extension UnreadBadge: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) {
        unread += 1
        print("badge: \(unread) unread")
    }
}

let feed = FeedController()
var badge: UnreadBadge? = UnreadBadge()
Broadcaster.shared.postCreated(Post(title: "Hello"))  // calls both, in registration order
badge = nil  // released: nothing to unregister
Broadcaster.shared.postCreated(Post(title: "Again"))  // calls the feed only

import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated extension Broadcaster {  // your typed broadcast
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

@MainActor final class FeedController: @MainActor PostCreationListener {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }  // held weakly
    @MainActor func postCreated(_ post: Post) { print("feed: new post", post.title) }
}

@MainActor final class UnreadBadge: @MainActor PostCreationListener {
    private var unread = 0
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
    @MainActor func postCreated(_ post: Post) {
        unread += 1
        print("badge: \(unread) unread")
    }
}

let feed = FeedController()
var badge: UnreadBadge? = UnreadBadge()
Broadcaster.shared.postCreated(Post(title: "Hello"))  // calls both, in registration order
badge = nil  // released: nothing to unregister
await Task.detached {  // another thread broadcasts: the feed only, called on the main actor
    Broadcaster.shared.postCreated(Post(title: "Again"))
}.value
await Broadcaster.shared.waitForScheduledDeliveries()  // until the main actor has made that call

import Broadcast
import Synchronization

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated extension Broadcaster {  // your typed broadcast
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

final class FeedController: PostCreationListener, Sendable {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }  // held weakly
    func postCreated(_ post: Post) { print("feed: new post", post.title) }
}

final class UnreadBadge: PostCreationListener, Sendable {  // any thread may call it: its state is in a Mutex
    private let unread = Mutex(0)
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }
    func postCreated(_ post: Post) {
        let count = unread.withLock { count in
            count += 1
            return count
        }
        print("badge: \(count) unread")
    }
}

let feed = FeedController()
var badge: UnreadBadge? = UnreadBadge()
Broadcaster.shared.postCreated(Post(title: "Hello"))  // calls both, in registration order
badge = nil  // released: nothing to unregister
Broadcaster.shared.postCreated(Post(title: "Again"))  // calls the feed only

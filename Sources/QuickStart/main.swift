import Broadcast

struct Post: Sendable { let title: String }
nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

nonisolated extension Broadcaster {  // your typed broadcast
    @discardableResult
    func postCreated(_ post: Post) -> Int {  // how many listeners it reached
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

final class FeedController: PostCreationListener {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }  // held weakly
    func postCreated(_ post: Post) { print("new post:", post.title) }
}

final class Avatar {}  // listens to nothing: never called, never counted

let feed = FeedController()
let avatars = (1...100).map { _ in Avatar() }
for avatar in avatars { Broadcaster.shared.addListener(avatar) }
let reached = Broadcaster.shared.postCreated(Post(title: "Hello"))  // prints "new post: Hello"
print("reached \(reached) of \(Broadcaster.shared.listenerCount) listeners")  // "reached 1 of 101 listeners"

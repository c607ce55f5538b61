// Swift6: error: type 'Log' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// The listener the README and "Getting Started" show refused: a plain class
// registered without `calledOn:`, which every broadcasting thread could call
// at once.
import Broadcast

struct Post: Sendable { let title: String }

protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

final class Log: PostCreationListener {
    var titles: [String] = []
    func postCreated(_ post: Post) { titles.append(post.title) }
}

nonisolated func register(_ log: Log, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(log)
}

// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// An actor's `async` initializer is isolated to the actor once every stored
// property is set: there it registers the listener it owns with
// `calledOn: self`, which is then only ever called on the actor.
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

nonisolated final class TitleList: PostCreationListener {
    private(set) var titles: [String] = []
    func postCreated(_ post: Post) { titles.append(post.title) }
}

actor Indexer {
    private let list = TitleList()

    init(broadcaster: Broadcaster) async {
        broadcaster.addListener(list, calledOn: self)
    }

    var titles: [String] { list.titles }
}

// Swift6: error: call to actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' in a synchronous nonisolated context
// AppDefaults: error: call to actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' in a synchronous nonisolated context
// Swift5: error: call to actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)' in a synchronous nonisolated context
//
// An actor that registers its listener with `calledOn: self` in a synchronous
// initializer: such an initializer is not isolated to the actor, so it cannot
// run the registration there. An `async` initializer is isolated to the actor
// once every stored property is set (Accepted/ActorAsyncInitRegistersItsListener.swift).
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

nonisolated final class TitleList: PostCreationListener {
    private(set) var titles: [String] = []
    func postCreated(_ post: Post) { titles.append(post.title) }
}

actor Indexer {
    private let list = TitleList()

    init(broadcaster: Broadcaster) {
        broadcaster.addListener(list, calledOn: self)
    }
}

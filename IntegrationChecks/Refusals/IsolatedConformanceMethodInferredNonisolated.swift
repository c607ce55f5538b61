// Swift6: error: main actor-isolated property 'titles' can not be mutated from a nonisolated context
// Swift5: error: main actor-isolated property 'titles' can not be mutated from a nonisolated context
//
// "Client Configurations": the members of an extension that states a
// conformance to a `nonisolated` protocol are inferred nonisolated, so the
// method needs `@MainActor` of its own to change the screen's state. (In the
// Swift 5 mode the same code compiles with a warning.)
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

@MainActor
final class FeedScreen {
    private(set) var titles: [String] = []
}

extension FeedScreen: @MainActor PostCreationListener {
    func postCreated(_ post: Post) { titles.append(post.title) }
}

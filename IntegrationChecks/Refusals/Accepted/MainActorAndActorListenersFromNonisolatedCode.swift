// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A @MainActor class and an actor are Sendable: they register from any code.
import Broadcast

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

@MainActor final class Screen {
    var titles: [String] = []
}

extension Screen: @MainActor PostCreationListener {
    @MainActor func postCreated(_ title: String) { titles.append(title) }
}

actor Indexer: PostCreationListener {
    nonisolated func postCreated(_ title: String) {}
}

nonisolated func register(_ screen: Screen, _ indexer: Indexer, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(screen)
    broadcaster.addListener(indexer)
}

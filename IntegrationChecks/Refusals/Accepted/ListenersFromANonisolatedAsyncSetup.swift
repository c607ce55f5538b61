// Swift6: compiles
// AppDefaults: compiles
// Swift5: compiles
//
// A dependency container isolated to no actor registers its listeners from
// a `nonisolated async` setup: a @MainActor class is Sendable, so it is
// handed to the main actor with `calledOn: MainActor.shared` from any code,
// without `await`, and is only ever called there (/*CONTEXT*/ checks a
// synchronous and an async setup). The main actor makes it, as it makes
// every @MainActor object.
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

@MainActor final class PostCounter {
    var count = 0
}

extension PostCounter: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) { count += 1 }
}

nonisolated final class AppContainer {
    let broadcaster = Broadcaster()
    let postCounter: PostCounter

    init(postCounter: PostCounter) {
        self.postCounter = postCounter
    }

    func start() /*CONTEXT*/ {
        broadcaster.addListener(postCounter, calledOn: MainActor.shared)
    }
}

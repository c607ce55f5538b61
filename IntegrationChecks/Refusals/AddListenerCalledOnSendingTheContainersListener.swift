// Swift6: error: sending value of non-Sendable type 'PostCounter' risks causing data races
// Swift6: note: sending task-isolated value of non-Sendable type 'PostCounter' to main actor-isolated instance method 'addListener(_:calledOn:receivingSticky:fileID:line:)'
// AppDefaults: error: sending value of non-Sendable type 'PostCounter' risks causing data races
// Swift5: compiles
//
// A dependency container, isolated to no actor, that keeps a listener that is
// not Sendable and awaits its registration on the main actor: the listener
// would then be called on the main actor while the container can still use
// it on its own thread. The listener is made Sendable (a @MainActor class),
// and registered without `await` (Accepted/ListenersFromANonisolatedAsyncSetup.swift).
import Broadcast

struct Post: Sendable { let title: String }

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

nonisolated final class PostCounter: PostCreationListener {
    var count = 0
    func postCreated(_ post: Post) { count += 1 }
}

nonisolated final class AppContainer {
    let broadcaster = Broadcaster()
    let postCounter = PostCounter()

    func start() async {
        await broadcaster.addListener(postCounter, calledOn: MainActor.shared)
    }
}

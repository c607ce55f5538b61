import Broadcast
import Dispatch

// The demo's scenario: posts, a feed, a composer, and login state.

nonisolated struct Post: Sendable {
    let title: String
}

nonisolated struct User: Sendable {
    let name: String
}

/// Listeners of new posts (`PostCreationListener`).
nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

/// Listeners of login state (a multicast delegate, without the singleton).
nonisolated protocol LoginListener: AnyObject {
    func userLoggedIn(_ user: User)
    func userLoggedOut()
}

/// The typed broadcasts: the only place that knows how an event is delivered.
/// `nonisolated`, so that any thread can broadcast, also where a module's
/// default isolation is the main actor. The payload is passed with `with:` to
/// a closure that captures nothing, so a broadcast whose listeners are called
/// at once allocates nothing.
nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }

    /// Login state is sticky: a screen created later can ask for the latest.
    func userLoggedIn(_ user: User) {
        broadcast(to: LoginListener.self, with: user, sticky: true) { $0.userLoggedIn($1) }
    }

    func userLoggedOut() {
        broadcast(to: LoginListener.self, sticky: true) { $0.userLoggedOut() }
    }
}

/// Where the current code runs: "main queue" or "background thread".
///
/// Reads a tag set on the main queue: `Thread.isMainThread` is not a reliable
/// test on Linux, where main-actor code can run on the main queue from another
/// thread.
nonisolated func whereThisRuns() -> String {
    DispatchQueue.getSpecific(key: mainQueueTag.key) != nil ? "main queue" : "background thread"
}

/// The key that tags the main queue; set up on first use.
nonisolated let mainQueueTag: MainQueueTag = {
    let tag = MainQueueTag()
    DispatchQueue.main.setSpecific(key: tag.key, value: true)
    return tag
}()

/// A queue-specific key that can be shared across threads.
nonisolated final class MainQueueTag: @unchecked Sendable {
    // @unchecked Sendable: `key` is immutable and only passed to Dispatch's
    // thread-safe `setSpecific` / `getSpecific`.
    let key = DispatchSpecificKey<Bool>()
}

/// Prints one line of what a listener received, indented under its step.
nonisolated func report(_ line: String) {
    print("    \(line)")
}

nonisolated func step(_ title: String) {
    print("\n▸ \(title)")
}

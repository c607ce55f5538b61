import Broadcast
import Testing

// The README's quick start, as written, except that the listener's body is
// empty, the last line, `broadcaster.postCreated(post)`, moves into a test
// below (a test file cannot hold top-level statements), and the protocol and
// extension carry no `nonisolated`: this module is compiled with Swift 6
// defaults, where they change nothing, and other tests conform main-actor
// screens to this protocol (see the "Client Configurations" article,
// for what an explicit `nonisolated` changes there). The quick start itself
// is built and run in every client configuration by scripts/client-matrix.

struct Post: Sendable { let title: String }
protocol PostCreationListener: AnyObject { func postCreated(_ post: Post) }

extension Broadcaster {  // a typed broadcast method, written by the user
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }
}

final class FeedController: PostCreationListener, Sendable {
    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }  // nothing to undo in deinit
    func postCreated(_ post: Post) {
        // typed, no userInfo
    }
}

// End of the snippet.

/// A `PostCreationListener` that records what it receives, next to the
/// snippet's `FeedController` (whose body is empty).
final class PostRecorder: PostCreationListener, Sendable {
    let log = EventLog()
    func postCreated(_ post: Post) { log.record(post.title) }
}

@Suite("Usage snippet")
struct UsageSnippetTests {
    @Test func theQuickStartCompilesAndDelivers() {
        let broadcaster = Broadcaster()
        let feed = FeedController(broadcaster: broadcaster)
        let recorder = PostRecorder()
        broadcaster.addListener(recorder)
        let post = Post(title: "Hello")

        broadcaster.postCreated(post)

        #expect(recorder.log.all == ["Hello"])
        #expect(
            broadcaster.listeners(of: PostCreationListener.self).map(ObjectIdentifier.init)
                == [ObjectIdentifier(feed), ObjectIdentifier(recorder)])
        #expect(broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(post) } == 2)
    }

    @Test func theDefaultBroadcasterIsShared() {
        weak var released: FeedController?
        do {
            let feed = FeedController()
            released = feed
            #expect(Broadcaster.shared.listeners(of: PostCreationListener.self).contains { $0 === feed })
        }
        // Nothing to undo in deinit: the shared broadcaster let it go.
        #expect(released == nil)
    }
}

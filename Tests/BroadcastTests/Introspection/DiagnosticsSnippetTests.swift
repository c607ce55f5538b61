import Broadcast
import BroadcastTesting
import Testing

/// The examples of the DocC article "Diagnosing deliveries", as written.
///
/// Also the example of its section in "Testing with Broadcast". The
/// snippets' types are nested in the suite so that they cannot collide with
/// other files' types; `FeedController`, `Post` and `PostCreationListener`
/// are the quick start's (UsageSnippetTests.swift).
@Suite("Diagnostics snippets", .timeLimit(.minutes(1)))
struct DiagnosticsSnippetTests {
    // Is it registered?

    @Test func removingTheFeedUnregistersIt() {
        let broadcaster = Broadcaster()
        let feed = FeedController(broadcaster: broadcaster)  // adds itself
        #expect(broadcaster.isRegistered(feed))
        broadcaster.removeListener(feed)
        #expect(!broadcaster.isRegistered(feed))
    }

    // Read the sticky state

    struct UserSignedIn: Sendable { let name: String }

    @Test func signingOutForgetsTheUser() {
        let broadcaster = Broadcaster()
        broadcaster.post(UserSignedIn(name: "Ada"), sticky: true)
        #expect(broadcaster.stickyEvent(for: UserSignedIn.self)?.name == "Ada")

        broadcaster.clearAllStickyBroadcasts()
        #expect(broadcaster.stickyEvent(for: UserSignedIn.self) == nil)
    }

    // Why was my listener not called?

    @Test func theFeedHearsAboutNewPosts() {
        let broadcaster = Broadcaster()
        let feed = FeedController(broadcaster: broadcaster)
        let explanation = broadcaster.deliveryExplanation(for: feed, to: PostCreationListener.self)
        #expect(explanation == .calledHere, "\(explanation)")
    }

    @MainActor final class FeedScreen {
        private(set) var titles: [String] = []
        init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
    }

    @Test func aBackgroundSyncReachesTheScreenThroughTheMainActor() async {
        let broadcaster = Broadcaster()
        let screen = await FeedScreen(broadcaster: broadcaster)

        let fromBackground = await Task.detached {
            broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self)
        }.value
        let onMainActor = await MainActor.run {
            broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self)
        }

        #expect(fromBackground == .scheduledIfConforming(on: MainActor.shared))
        #expect(onMainActor == .calledHere)
    }

    // Catch a listener that nothing keeps alive

    final class Downloader: PostCreationListener, Sendable {
        func postCreated(_ post: Post) {}
    }

    @Test func aThrowawayListenerIsReported() {
        let reports = BroadcastRecorder<BroadcastDiagnostic>()
        let broadcaster = Broadcaster(onDiagnostic: { reports.record($0) })

        broadcaster.addListener(Downloader())

        #if DEBUG
            #expect(reports.values.map(\.typeName) == ["Downloader"])
        #endif
    }

    // Testing with Broadcast: diagnose a delivery that did not happen

    @Test func aSpysExplanationMakesTheFailureMessage() {
        let broadcaster = Broadcaster()
        let spy = PostRecorder()
        broadcaster.addListener(spy)
        #expect(
            broadcaster.deliveryExplanation(for: spy, to: PostCreationListener.self) == .calledHere,
            "\(broadcaster.deliveryExplanation(for: spy, to: PostCreationListener.self))")
    }
}

extension DiagnosticsSnippetTests.FeedScreen: @MainActor PostCreationListener {
    func postCreated(_ post: Post) { titles.append(post.title) }
}

/// The `isRegistered(_:)` and `stickyEvent(for:)` examples of the doc comments.
@Suite("Diagnostics doc comment examples", .timeLimit(.minutes(1)))
struct DiagnosticsDocCommentTests {
    @Test func isRegisteredExample() {
        let broadcaster = Broadcaster()
        let feed = FeedController(broadcaster: broadcaster)  // adds itself
        #expect(broadcaster.isRegistered(feed))  // true
        broadcaster.removeListener(feed)
        #expect(!broadcaster.isRegistered(feed))  // false
    }

    @Test func stickyEventExample() {
        struct UserSignedIn: Sendable, Equatable { let name: String }
        let broadcaster = Broadcaster()
        broadcaster.post(UserSignedIn(name: "Ada"), sticky: true)
        let current = broadcaster.stickyEvent(for: UserSignedIn.self)  // UserSignedIn(name: "Ada")
        #expect(current == UserSignedIn(name: "Ada"))
    }

    @Test func deliveryExplanationDescriptionExample() async {
        let broadcaster = Broadcaster()
        let screen = await DiagnosticsSnippetTests.FeedScreen(broadcaster: broadcaster)
        let printed = await Task.detached {
            "\(broadcaster.deliveryExplanation(for: screen, to: PostCreationListener.self))"
        }.value
        #expect(
            printed
                == "scheduled on MainActor if it conforms there: "
                + "its conformance can be used only on that actor, where it registered")
    }
}

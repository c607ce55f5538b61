import Broadcast
import Foundation

/// A feed that listens to posts and login state for its whole life.
///
/// Non-isolated: it is called on whichever thread broadcasts.
nonisolated final class FeedController: PostCreationListener, LoginListener, Sendable {
    init(broadcaster: Broadcaster) {
        broadcaster.addListener(self)  // nothing to undo in deinit
    }

    func postCreated(_ post: Post) {
        report("FeedController   got post \"\(post.title)\" (\(whereThisRuns()))")
    }

    func userLoggedIn(_ user: User) {
        report("FeedController   sees \(user.name) logged in")
    }

    func userLoggedOut() {
        report("FeedController   sees the user logged out")
    }
}

/// A profile badge that only cares about login state.
nonisolated final class ProfileBadge: LoginListener, Sendable {
    init(broadcaster: Broadcaster) {
        broadcaster.addListener(self)
    }

    func userLoggedIn(_ user: User) {
        report("ProfileBadge     shows \(user.name)")
    }

    func userLoggedOut() {
        report("ProfileBadge     shows \"Sign in\"")
    }

    deinit {
        report("ProfileBadge     released (no unregistering needed)")
    }
}

/// A UI screen: main-actor isolated, conforming with an isolated conformance.
@MainActor
final class TimelineScreen {
    init(broadcaster: Broadcaster) {
        broadcaster.addListener(self)  // registered on the main actor: only ever called there
    }
}

// The methods say `@MainActor`: in an extension that conforms to an explicitly
// `nonisolated` protocol they would otherwise be inferred nonisolated.
extension TimelineScreen: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) {
        MainActor.assertIsolated()
        report("TimelineScreen   got post \"\(post.title)\" on the main actor")
    }
}

/// A screen that listens to posts only while visible, and to login state
/// for its whole life; every registration declared in one place.
@MainActor
final class ComposeScreen {
    private let registrations: ListenerRegistrations

    init(broadcaster: Broadcaster) {
        registrations = ListenerRegistrations(broadcaster: broadcaster)
        registrations.add(self, for: LoginListener.self, receivingSticky: true)
        registrations.add(self, for: PostCreationListener.self, lifespan: .visible)
    }

    func viewWillAppear() { registrations.start(.visible) }
    func viewDidDisappear() { registrations.stop(.visible) }
}

extension ComposeScreen: @MainActor PostCreationListener, @MainActor LoginListener {
    @MainActor func postCreated(_ post: Post) {
        report("ComposeScreen    (visible) got post \"\(post.title)\"")
    }

    @MainActor func userLoggedIn(_ user: User) {
        report("ComposeScreen    knows \(user.name) is logged in")
    }

    @MainActor func userLoggedOut() {
        report("ComposeScreen    knows nobody is logged in")
    }
}

/// Composes posts; knows nothing about who listens.
nonisolated final class PostComposer: Sendable {
    private let broadcaster: Broadcaster

    init(broadcaster: Broadcaster) {
        self.broadcaster = broadcaster
    }

    func save(_ title: String) {
        broadcaster.postCreated(Post(title: title))
    }
}

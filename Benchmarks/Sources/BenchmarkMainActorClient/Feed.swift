import Broadcast

// An app module as Xcode creates it: default actor isolation MainActor,
// InferIsolatedConformances and NonisolatedNonsendingByDefault (see
// Package.swift). Written as an app writes it: the listener protocol and
// the typed broadcast are `nonisolated`, the listener is a main-actor class
// whose conformance is inferred isolated to the main actor, and it
// registers in its (main-actor) initializer.

struct Post: Sendable {
    let title: String
    let id: Int
}

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }

    /// The same, with the closure capturing the payload.
    func postCreatedCapturing(_ post: Post) {
        broadcast(to: PostCreationListener.self) { $0.postCreated(post) }
    }
}

final class FeedController: PostCreationListener {
    var received = 0
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
    func postCreated(_ post: Post) { received &+= post.id }
}

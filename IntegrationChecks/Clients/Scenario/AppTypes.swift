import Broadcast
import BroadcastSystemBridge
import Dispatch
import Foundation
import Synchronization

// The app's types, written as the README writes them: the listener protocol
// and the typed broadcast are `nonisolated` (so any thread can broadcast, in
// every configuration); everything else carries no annotation unless it is
// UI code, which says `@MainActor` itself.

struct Post: Sendable { let title: String }
struct SignedIn: Sendable { let name: String }

nonisolated protocol PostCreationListener: AnyObject {
    func postCreated(_ post: Post)
}

nonisolated protocol SessionListener: AnyObject {
    func userSignedOut() async
}

nonisolated extension Broadcaster {
    func postCreated(_ post: Post) {
        broadcast(to: PostCreationListener.self, with: post) { $0.postCreated($1) }
    }

    nonisolated(nonsending) func userSignedOut() async {
        await broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
    }
}

/// UI code: main-actor isolated in every configuration, with an isolated
/// conformance, keeping main-actor state that its listener method changes.
@MainActor
final class Screen {
    let log: CallLog
    private(set) var titles: [String] = []
    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        broadcaster.addListener(self)
    }
}

// `@MainActor` on the method: members declared in an extension that conforms
// to an explicitly `nonisolated` protocol are inferred nonisolated (Swift 6 and
// Swift 5 modes), and could not touch `titles`.
extension Screen: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) {
        titles.append(post.title)
        log.record("screen \(post.title)")
    }
}

/// UI code whose sign-out work is asynchronous: a conformance isolated to
/// the main actor, reached by the async typed method awaited from
/// main-actor code.
@MainActor
final class SessionScreen {
    let log: CallLog
    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        broadcaster.addListener(self)
    }
}

extension SessionScreen: @MainActor SessionListener {
    @MainActor func userSignedOut() async {
        MainActor.assertIsolated()
        log.record("session screen signed out")
    }
}

/// A non-isolated object whose conformance is isolated to the main actor,
/// registered from non-isolated code: it has no actor, so it is called
/// where the broadcast runs, and reached only if that is the main actor.
nonisolated final class SessionGauge: Sendable {
    let log: CallLog
    init(log: CallLog) { self.log = log }
}

extension SessionGauge: @MainActor SessionListener {
    @MainActor func userSignedOut() async {
        log.record("session gauge signed out")
    }
}

/// A plain app class: non-isolated under Swift 6 and Swift 5 defaults,
/// main-actor isolated (with an inferred isolated conformance) in a module
/// whose default isolation is the main actor.
final class Archive: PostCreationListener, Sendable {
    let log: CallLog
    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        broadcaster.addListener(self)  // the initializer's isolation is recorded
    }
    func postCreated(_ post: Post) { log.record("archive \(post.title)") }
}

/// Listens to nothing: never called, never counted.
final class Bystander: Sendable {}

/// A screen that listens to posts only while visible.
@MainActor
final class ComposeScreen {
    let log: CallLog
    private let registrations: ListenerRegistrations
    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        registrations = ListenerRegistrations(broadcaster: broadcaster)
        registrations.add(self, for: PostCreationListener.self, lifespan: .visible)
    }
    func viewWillAppear() { registrations.start(.visible) }
    func viewDidDisappear() { registrations.stop(.visible) }
}

extension ComposeScreen: @MainActor PostCreationListener {
    @MainActor func postCreated(_ post: Post) { log.record("compose \(post.title)") }
}

/// The application-state pattern: a plain class that knows application
/// states, not UIKit or NotificationCenter.
final class Downloader: ApplicationStateListener, Sendable {
    let log: CallLog
    init(broadcaster: Broadcaster, log: CallLog) {
        self.log = log
        broadcaster.addListener(self)
    }
    func applicationDidEnterBackground() { log.record("downloader background") }
}

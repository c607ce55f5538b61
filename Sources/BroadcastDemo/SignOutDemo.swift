import Broadcast

/// Listeners whose sign-out work is asynchronous.
nonisolated protocol SessionListener: AnyObject {
    func userSignedOut() async
}

/// The typed awaited broadcast: returns once every session listener has
/// finished signing out. `nonisolated(nonsending)`: it runs where its caller
/// runs, in every client configuration.
nonisolated extension Broadcaster {
    nonisolated(nonsending) func userSignedOut() async {
        await broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
    }
}

/// A store of unsent drafts, cleared on its own actor when the user signs out.
actor DraftStore: SessionListener {
    private var drafts = ["Draft 1", "Draft 2", "Draft 3"]

    var count: Int { drafts.count }

    func userSignedOut() async {
        let cleared = drafts.count
        for _ in drafts {
            await Task.yield()  // stands in for deleting each draft's file
        }
        drafts.removeAll()
        report("DraftStore       cleared \(cleared) drafts on its actor")
    }
}

/// A main-actor screen that shows the sign-in form once the stores are clear.
@MainActor
final class SessionScreen {
    init(broadcaster: Broadcaster) {
        broadcaster.addListener(self)
    }
}

// `@MainActor` on the method, as in `TimelineScreen`: the protocol is
// explicitly `nonisolated`.
extension SessionScreen: @MainActor SessionListener {
    @MainActor func userSignedOut() async {
        MainActor.assertIsolated()
        report("SessionScreen    shows the sign-in form, on the main actor")
    }
}

/// Signs out from a background task and waits until every store is clear.
@MainActor
func runSignOutDemo(broadcaster: Broadcaster = Broadcaster()) async {
    step("Sign-out awaits every listener's async work, in registration order")
    let drafts = DraftStore()
    broadcaster.addListener(drafts)
    let screen = SessionScreen(broadcaster: broadcaster)
    await Task.detached { await broadcaster.userSignedOut() }.value
    report("sign-out         returned with \(await drafts.count) drafts left")
    withExtendedLifetime(screen) {}
}

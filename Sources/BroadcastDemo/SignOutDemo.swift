import Broadcast

/// Listeners whose sign-out work is asynchronous.
protocol SessionListener: AnyObject {
    func userSignedOut() async
}

extension Broadcaster {
    /// Returns once every session listener has finished signing out, with how
    /// many there were.
    @discardableResult
    func userSignedOut() async -> Int {
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

extension SessionScreen: @MainActor SessionListener {
    func userSignedOut() async {
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
    let signedOut = await Task.detached { await broadcaster.userSignedOut() }.value
    report("sign-out         returned \(signedOut) with \(await drafts.count) drafts left")
    withExtendedLifetime(screen) {}
}

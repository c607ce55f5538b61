import Broadcast

/// Plays posts, a feed, a composer and login state end to end and prints what each listener got.
@MainActor
func runCoreDemo() async {
    _ = mainQueueTag  // tag the main queue before any listener asks where it runs
    let broadcaster = Broadcaster()  // injected, not a global: tests make their own
    let feed = FeedController(broadcaster: broadcaster)
    var badge: ProfileBadge? = ProfileBadge(broadcaster: broadcaster)
    let timeline = TimelineScreen(broadcaster: broadcaster)
    let composer = PostComposer(broadcaster: broadcaster)

    step("Ada logs in (a sticky broadcast: it is also kept as the latest login state)")
    broadcaster.userLoggedIn(User(name: "Ada"))

    step("The composer saves a post on the main actor: every listener is called before save returns")
    composer.save("Hello, typed world")
    let reached = broadcaster.listenerCount(of: PostCreationListener.self)
    report(
        "broadcast        reached the \(reached) listeners of posts, of the \(broadcaster.registrationCount) registered"
    )

    step("A background task saves a post: the feed is called on that thread, the timeline on the main actor")
    _ = await Task.detached { composer.save("Written in the background") }.value
    await broadcaster.waitForScheduledDeliveries()  // a barrier, not a sleep

    step("The profile badge is released mid-run; the next broadcast simply skips it")
    badge = nil
    broadcaster.userLoggedOut()

    step("A compose screen created later asks for the latest login state and gets it at once")
    let compose = ComposeScreen(broadcaster: broadcaster)

    step("It listens to posts only while visible")
    compose.viewWillAppear()
    composer.save("Seen while visible")
    compose.viewDidDisappear()
    composer.save("Posted while hidden")

    step("A closure handler for event values, kept alive by its token")
    let token = broadcaster.addHandler(for: User.self) { user in
        report("handler          got a User value: \(user.name)")
    }
    broadcaster.post(User(name: "Grace"))
    token.cancel()
    broadcaster.post(User(name: "nobody hears this"))

    step("What the broadcaster holds now")
    report(broadcaster.debugDescription)
    withExtendedLifetime((feed, badge, timeline, compose)) {}
}

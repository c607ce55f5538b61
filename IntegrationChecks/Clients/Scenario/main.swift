// The client scenario: Broadcast's API used the way an app module uses it,
// compiled from this one source in each client configuration (Swift 6
// defaults, an Xcode app target's defaults, Swift 5 mode) and run as a real
// process by `scripts/client-matrix`. Types carry only the annotations the
// README asks for, so what differs between configurations is what a user of
// that configuration gets. Exits non-zero if a check fails.
import Broadcast
import BroadcastSystemBridge
import Dispatch
import Foundation

let checks = ScenarioChecks(configuration: ClientConfiguration.current)
let broadcaster = Broadcaster()
let log = CallLog()

// A `@MainActor` screen, a plain app class, 100 bystanders that listen to
// nothing, all registered from main-actor code (top-level code is).
let screen = Screen(broadcaster: broadcaster, log: log)
let archive = Archive(broadcaster: broadcaster, log: log)
let bystanders = (0..<100).map { _ in Bystander() }
for bystander in bystanders { broadcaster.addListener(bystander) }

// 1. A broadcast on the main actor calls both before it returns.
broadcaster.postCreated(Post(title: "main"))
checks.expect(log.calls == ["screen main (main queue)", "archive main (main queue)"], "both called at once")
checks.expect(broadcaster.listenerCount(of: PostCreationListener.self) == 2, "listenerCount(of:) is 2")
checks.expect(broadcaster.registrationCount == 102, "102 registrations")
checks.expect(screen.titles == ["main"], "the screen changed its main-actor state")

// 2. From a background thread. Where the plain class is called, and what
// `deliveryExplanation` says about it there, is the difference between
// configurations (see the "Client Configurations" article).
log.reset()
let listeners = Unchecked((archive: archive as AnyObject, screen: screen as AnyObject))
let background = BackgroundThread.run {
    broadcaster.postCreated(Post(title: "background"))
    return (
        archive: broadcaster.deliveryExplanation(for: listeners.value.archive, to: PostCreationListener.self),
        screen: broadcaster.deliveryExplanation(for: listeners.value.screen, to: PostCreationListener.self),
        callsBeforeReturn: log.calls
    )
}
await broadcaster.waitForScheduledDeliveries()
// An isolated conformance can only be checked on its actor, so from here
// the answer is "scheduled if it conforms there".
checks.expect(background.screen == .scheduledIfConforming(on: MainActor.shared), "screen: scheduled if it conforms")
if checks.configuration.makesPlainClassesMainActor {
    checks.expect(
        background.archive == .scheduledIfConforming(on: MainActor.shared),
        "archive: scheduled if it conforms (its inferred conformance is isolated to the main actor)")
    checks.expect(background.callsBeforeReturn.isEmpty, "nothing called on the background thread")
    checks.expect(
        Set(log.calls) == ["screen background (main queue)", "archive background (main queue)"],
        "both called later, on the main queue")
} else {
    checks.expect(background.archive == .calledHere, "archive: called here")
    checks.expect(
        background.callsBeforeReturn == ["archive background (background thread)"],
        "archive called on the background thread before the broadcast returned")
    checks.expect(
        log.calls == ["archive background (background thread)", "screen background (main queue)"],
        "screen called later, on the main queue")
}

// 3. The typed method, then the barrier, from a detached task: both calls
// have run when the barrier returns.
log.reset()
await Task.detached {
    broadcaster.postCreated(Post(title: "waited"))
    await broadcaster.waitForScheduledDeliveries()
}.value
checks.expect(log.calls.count == 2, "both calls made when waitForScheduledDeliveries returned")

// 4. Sticky event values: a late handler receives the latest at once.
broadcaster.post(SignedIn(name: "Ada"), sticky: true)
let greeted = CallLog()
let greeting = broadcaster.addHandler(for: SignedIn.self, receivingSticky: true) { greeted.record($0.name) }
checks.expect(greeted.calls == ["Ada (main queue)"], "a late handler gets the sticky event at once, where it registers")
checks.expect(broadcaster.stickyEvent(for: SignedIn.self)?.name == "Ada", "stickyEvent(for:) reads it")

// 5. events(of:) yields posted values in order.
let events = broadcaster.events(of: SignedIn.self)
let received = Task {
    var names: [String] = []
    for await event in events.prefix(2) { names.append(event.name) }
    return names
}
await Task.yield()
broadcaster.post(SignedIn(name: "Grace"))
broadcaster.post(SignedIn(name: "Linus"))
await broadcaster.waitForScheduledDeliveries()
checks.expect(await received.value == ["Grace", "Linus"], "events(of:) yields in order")
withExtendedLifetime(greeting) {}

// 6. A `.visible` registration hears broadcasts only while started.
log.reset()
let compose = ComposeScreen(broadcaster: broadcaster, log: log)
broadcaster.postCreated(Post(title: "hidden"))
compose.viewWillAppear()
broadcaster.postCreated(Post(title: "visible"))
compose.viewDidDisappear()
broadcaster.postCreated(Post(title: "gone"))
checks.expect(
    log.calls.filter { $0.hasPrefix("compose") } == ["compose visible (main queue)"],
    "the .visible registration hears only while visible")

// 7. The system bridge: a plain downloader hears the background transition
// on the main actor, posted from another thread.
let center = NotificationCenter()
let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
let simulator = SystemNotificationSimulator(center: center)
let downloader = Downloader(broadcaster: broadcaster, log: log)
log.reset()
BackgroundThread.run { simulator.enterBackground() }
await broadcaster.waitForScheduledDeliveries()
checks.expect(log.calls == ["downloader background (main queue)"], "the downloader is called once, on the main queue")
checks.expect(
    broadcaster.deliveryExplanation(for: downloader, to: ApplicationStateListener.self) == .calledHere,
    "asked on the main actor, the downloader is called here")
// 8. The async typed method, `nonisolated(nonsending)`, awaited from
// main-actor code (top-level code is), runs where its caller runs, in every
// configuration: it reaches listeners whose conformance is isolated to the
// main actor, once each, on the main actor. The screen registered on the
// main actor; the gauge has no actor and is reached only because the
// broadcast runs there. (Its registration off the main actor is what debug
// builds report, and what this broadcaster's handler takes in.)
let sessions = Broadcaster(onDiagnostic: { _ in })
let sessionScreen = SessionScreen(broadcaster: sessions, log: log)
let gauge = SessionGauge(log: log)
checks.expect(BackgroundThread.run { sessions.addListener(gauge) }, "the gauge registers from a background thread")
log.reset()
await sessions.userSignedOut()
checks.expect(
    log.calls == ["session screen signed out (main queue)", "session gauge signed out (main queue)"],
    "the async typed method reaches both main-actor conformances once, on the main queue")
withExtendedLifetime((screen, archive, bystanders, compose, bridge, downloader, sessionScreen, gauge)) {}

exit(checks.finish())

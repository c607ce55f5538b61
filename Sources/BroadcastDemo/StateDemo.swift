import Broadcast
import Observation

/// The current session, kept as a sticky event.
struct Session: Sendable { let user: String }

/// A link to open once, by whichever screen is there to open it.
struct DeepLink: Sendable { let path: String }

/// Shows sticky state as an Observable value, and state consumed once.
@MainActor
func runStateDemo() async {
    let broadcaster = Broadcaster()

    step("Sticky state as an Observable value: a view model reads the latest session")
    broadcaster.post(Session(user: "Ada"), sticky: true)
    let session = ObservableStickyEvent(for: Session.self, on: broadcaster)  // starts with the state kept
    report("model            session: \(session.value?.user ?? "none")")
    withObservationTracking {
        _ = session.value
    } onChange: {
        report("observation      the session is about to change")
    }
    _ = await Task.detached { broadcaster.post(Session(user: "Grace"), sticky: true) }.value
    await broadcaster.waitForScheduledDeliveries()  // the update runs on the main actor
    report("model            session: \(session.value?.user ?? "none")")
    broadcaster.clearStickyEvent(for: Session.self)
    report("model            after the clear: \(session.value?.user ?? "none")")

    step("State consumed once: a deep link waits for a screen, and only one screen opens it")
    broadcaster.post(DeepLink(path: "/posts/42"), sticky: true)
    let first = broadcaster.addHandler(
        for: DeepLink.self, calledOn: MainActor.shared, receivingSticky: true, consumingSticky: true
    ) { link in report("first screen     opens \(link.path)") }
    let second = broadcaster.addHandler(
        for: DeepLink.self, calledOn: MainActor.shared, receivingSticky: true, consumingSticky: true
    ) { link in report("second screen    opens \(link.path)") }
    let pending = broadcaster.takeStickyEvent(for: DeepLink.self).map(\.path) ?? "none"
    report("taken afterwards: \(pending)")
    withExtendedLifetime((first, second)) {}
}

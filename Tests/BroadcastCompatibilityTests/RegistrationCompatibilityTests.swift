import Broadcast
import Testing

/// The 0.1.0 spellings of lifespans and registrations behave as they did.
@Suite("0.1.0 spellings: registrations")
struct RegistrationCompatibilityTests {
    @Test func aLifespanMadeByNameIsTheCustomLifespanOfThatName() {
        let editing = Lifespan("editing")

        #expect(editing == .custom("editing"))
        #expect(editing.name == "editing")
        #expect(Lifespan("lifetime") == .lifetime)
    }

    @Test func aRegistrationWithTheStickyBroadcastsLabelReplaysAtEachStart() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let spy = GreetingSpy("spy", log: log)
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("kept") }

        let registration = ListenerRegistration(
            spy, for: Greeting.self, lifespan: .visible, on: broadcaster, receivingStickyBroadcasts: true)
        registration.start()
        registration.stop()
        registration.start()

        #expect(log.all == ["spy:kept", "spy:kept"])
    }

    @Test @MainActor func aRegistrationOfAListenerThatIsNotSendableWithTheStickyBroadcastsLabelReplays() {
        // The 0.1.0 spelling, from main-actor code, with a listener that is
        // not Sendable: the form bound to the declaring actor.
        let broadcaster = Broadcaster()
        let greeter = PlainGreeter()
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("kept") }

        let registration = ListenerRegistration(
            greeter, for: Greeting.self, lifespan: .visible, on: broadcaster, receivingStickyBroadcasts: true)
        registration.start()
        broadcaster.broadcast(to: Greeting.self) { $0.greet("live") }

        #expect(greeter.greetings == ["kept", "live"])
    }

    @Test func addingWithTheStickyBroadcastsLabelStartsALifetimeRegistrationWithTheReplay() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let spy = GreetingSpy("spy", log: log)
        let quiet = GreetingSpy("quiet", log: log)
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("kept") }
        let registrations = ListenerRegistrations(broadcaster: broadcaster)

        let added = registrations.add(spy, for: Greeting.self, lifespan: .lifetime, receivingStickyBroadcasts: true)
        registrations.add(quiet, for: Greeting.self, lifespan: .lifetime, receivingStickyBroadcasts: false)
        broadcaster.broadcast(to: Greeting.self) { $0.greet("live") }

        #expect(added.isListening)
        #expect(log.all == ["spy:kept", "spy:live", "quiet:live"])
    }

    @Test @MainActor func aHandlerRegistrationWrittenFor010CompilesUnchanged() {
        // Not deprecated: 1.0 only added defaulted parameters to this call.
        let broadcaster = Broadcaster()
        let log = CallLog()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        registrations.addHandler(for: SignedIn.self, lifespan: .visible) { log.record("handler:\($0.name)") }

        broadcaster.post(SignedIn(name: "hidden"))
        registrations.start(.visible)
        broadcaster.post(SignedIn(name: "shown"))

        #expect(log.all == ["handler:shown"])
    }
}

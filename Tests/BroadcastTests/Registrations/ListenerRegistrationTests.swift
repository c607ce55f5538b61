import Broadcast
import Testing

@Suite("Registrations and lifespans")
struct ListenerRegistrationTests {
    @Test("start and stop are idempotent and can repeat")
    func startStopRepeated() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        let registration = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)

        broadcaster.greet("0")  // not started: nothing
        registration.start()
        registration.start()  // idempotent: still one delivery
        broadcaster.greet("1")
        registration.stop()
        registration.stop()
        broadcaster.greet("2")
        registration.start()
        broadcaster.greet("3")

        #expect(log.all == ["a.greet(1)", "a.greet(3)"])
        #expect(registration.isListening)
    }

    @Test("a listener that is not Sendable is called only on the actor that declared its registration")
    @MainActor func boundToTheDeclaringActor() async {
        let broadcaster = Broadcaster()
        let greeter = PlainGreeter()
        let registration = ListenerRegistration(
            greeter, for: Greeting.self, calledOn: MainActor.shared, on: broadcaster)

        await Task.detached { registration.start() }.value  // started from code isolated to no actor
        await Task.detached { broadcaster.greet("a") }.value  // broadcast from another thread
        await broadcaster.waitForScheduledDeliveries()

        #expect(greeter.greetings == ["a@main queue"])
        #expect(registration.isListening)
    }

    @Test("a registration listens to its one protocol only")
    func singleProtocol() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        let registration = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)
        registration.start()

        broadcaster.greet("x")
        broadcaster.bid("x")
        broadcaster.post(SignedIn(user: "x"))

        #expect(log.all == ["a.greet(x)"])
    }

    @Test("an object both added and registered receives each broadcast once")
    func listenerAndRegistrationDeduplicated() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        broadcaster.addListener(spy)
        let registration = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)
        registration.start()

        #expect(broadcaster.greet(count: "1") == 1)
        broadcaster.removeListener(spy)
        #expect(broadcaster.greet(count: "2") == 1)  // still reached through the registration
        registration.stop()
        #expect(broadcaster.greet(count: "3") == 0)
        #expect(log.all == ["a.greet(1)", "a.greet(2)"])
    }

    @Test("a registration never keeps its listener alive, and outlives it harmlessly")
    func registrationOutlivesListener() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        weak var released: SpyListener?
        var registration: ListenerRegistration?
        do {
            let spy = SpyListener("gone", log: log)
            released = spy
            registration = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)
            registration?.start()
            broadcaster.greet("alive")
        }
        #expect(released == nil)
        #expect(registration?.isListening == false)
        broadcaster.greet("dead")
        registration?.start()  // the listener is gone: nothing to start
        registration?.stop()
        #expect(log.all == ["gone.greet(alive)"])
        #expect(broadcaster.registrationCount == 0)
    }

    @Test("releasing a registration stops it")
    func releasingStops() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        var registration: ListenerRegistration? = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)
        registration?.start()
        broadcaster.greet("1")
        registration = nil
        broadcaster.greet("2")
        #expect(log.all == ["a.greet(1)"])
    }

    @Test("lifespans start and stop independently; lifetime starts when added")
    func lifespansIndependent() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("vc", log: log)
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        registrations.add(spy, for: Farewell.self, lifespan: .lifetime)
        registrations.add(spy, for: Greeting.self, lifespan: .visible)
        let editing = Lifespan.custom("editing")
        registrations.addHandler(for: SignedIn.self, lifespan: editing) {
            log.append("handler.signedIn(\($0.user))")
        }

        broadcaster.greet("hidden")  // visible not started
        broadcaster.bid("always")  // lifetime: started
        registrations.start(.visible)
        broadcaster.greet("shown")
        broadcaster.post(SignedIn(user: "early"))  // editing not started
        registrations.start(editing)
        broadcaster.post(SignedIn(user: "editing"))
        registrations.stop(.visible)
        broadcaster.greet("gone")
        broadcaster.bid("still")
        registrations.stop(editing)
        broadcaster.post(SignedIn(user: "late"))
        registrations.stopAll()
        broadcaster.bid("never")

        #expect(
            log.all == [
                "vc.bid(always)", "vc.greet(shown)", "handler.signedIn(editing)", "vc.bid(still)",
            ])
        #expect(registrations.registrations(of: .visible).count == 1)
    }

    @Test("the lifespan defaults to lifetime: added registrations and handlers start at once")
    func lifespanDefaultsToLifetime() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        let added = registrations.add(spy, for: Greeting.self)
        let handler = registrations.addHandler(for: SignedIn.self) {
            log.append("handler.signedIn(\($0.user))")
        }

        broadcaster.greet("now")
        broadcaster.post(SignedIn(user: "now"))

        #expect(added.lifespan == .lifetime && handler.lifespan == .lifetime)
        #expect(log.all == ["a.greet(now)", "handler.signedIn(now)"])
    }

    @Test("a registered handler receiving sticky gets the sticky event at each start")
    func handlerReceivingStickyGetsTheStickyEventAtEachStart() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        broadcaster.post(SignedIn(user: "ada"), sticky: true)
        registrations.addHandler(for: SignedIn.self, lifespan: .visible, receivingSticky: true) {
            log.append("sticky.\($0.user)")
        }
        registrations.addHandler(for: SignedIn.self, lifespan: .visible) {
            log.append("plain.\($0.user)")
        }

        registrations.start(.visible)
        registrations.stop(.visible)
        registrations.start(.visible)

        #expect(log.all == ["sticky.ada", "sticky.ada"])
    }

    @Test("a registered handler with an owner receives it, and is skipped once the owner is gone")
    func handlerWithOwnerIsSkippedOnceTheOwnerIsGone() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        var owner: SpyListener? = SpyListener("owner", log: log)
        registrations.addHandler(for: SignedIn.self, owner: owner!) { owner, event in
            log.append("\(owner.name).signedIn(\(event.user))")
        }

        broadcaster.post(SignedIn(user: "1"))
        owner = nil
        broadcaster.post(SignedIn(user: "2"))

        #expect(log.all == ["owner.signedIn(1)"])
        #expect(broadcaster.registrationCount == 1)  // registered until the registrations go
    }

    @Test("releasing a ListenerRegistrations stops all of its registrations")
    func releasingRegistrationsStopsAll() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        var registrations: ListenerRegistrations? = ListenerRegistrations(broadcaster: broadcaster)
        registrations?.add(spy, for: Greeting.self, lifespan: .lifetime)
        broadcaster.greet("1")
        registrations = nil
        broadcaster.greet("2")
        #expect(log.all == ["a.greet(1)"])
        #expect(broadcaster.registrationCount == 0)
    }
}

extension Broadcaster {
    /// A `greet` broadcast that returns its delivery count.
    func greet(count who: String) -> Int {
        broadcast(to: Greeting.self) { $0.greet(who) }
    }
}

import Broadcast
import Testing

/// `stickyEvent(for:)` reads the sticky value without registering;
/// `clearAllStickyBroadcasts()` forgets every sticky broadcast and event.
@Suite("Sticky state")
struct StickyStateTests {
    @Test func stickyEventIsTheLatestStickyPost() {
        let broadcaster = Broadcaster()
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == nil)
        broadcaster.post(SignedIn(user: "ada"), sticky: true)
        broadcaster.post(SignedIn(user: "grace"))  // not sticky: the sticky one stays
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == SignedIn(user: "ada"))
        broadcaster.post(SignedIn(user: "alan"), sticky: true)
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == SignedIn(user: "alan"))
        #expect(broadcaster.stickyEvent(for: Connectivity.self) == nil)
        #expect(broadcaster.registrationCount == 0)  // reading registered nothing
    }

    @Test func stickyEventAgreesWithWhatALateHandlerReceives() {
        let broadcaster = Broadcaster()
        broadcaster.setStickyEvent(Connectivity(isOnline: false))
        let received = Locked<[Connectivity]>([])
        let token = broadcaster.addHandler(for: Connectivity.self, receivingSticky: true) { event in
            received.withLock { $0.append(event) }
        }
        #expect(broadcaster.stickyEvent(for: Connectivity.self) == Connectivity(isOnline: false))
        #expect(received.withLock { $0 } == [Connectivity(isOnline: false)])
        withExtendedLifetime(token) {}
    }

    @Test func clearingForgetsTheStickyEvent() {
        let broadcaster = Broadcaster()
        broadcaster.post(SignedIn(user: "ada"), sticky: true)
        broadcaster.clearStickyEvent(for: SignedIn.self)
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == nil)
    }

    @Test func aStickyProtocolBroadcastToTheEventsListenersCarriesNoValue() {
        let broadcaster = Broadcaster()
        broadcaster.post(SignedIn(user: "ada"), sticky: true)
        broadcaster.broadcast(to: (any EventListener<SignedIn>).self, sticky: true) {
            $0.receive(SignedIn(user: "replaced"))
        }
        #expect(broadcaster.hasStickyBroadcast(for: (any EventListener<SignedIn>).self))
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == nil)
    }

    @Test func clearAllStickyBroadcastsForgetsBroadcastsAndEvents() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("g") }
        broadcaster.setStickyBroadcast(for: Farewell.self) { $0.bid("f") }
        broadcaster.post(SignedIn(user: "ada"), sticky: true)
        broadcaster.clearAllStickyBroadcasts()
        #expect(!broadcaster.hasStickyBroadcast(for: Greeting.self))
        #expect(!broadcaster.hasStickyBroadcast(for: Farewell.self))
        #expect(broadcaster.stickyEvent(for: SignedIn.self) == nil)
        let late = SpyListener("late", log: log)
        broadcaster.addListener(late, receivingSticky: true)
        #expect(log.all.isEmpty)
        broadcaster.greet("live")  // later broadcasts still deliver
        #expect(log.all == ["late.greet(live)"])
    }
}

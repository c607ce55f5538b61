import Broadcast
import Testing

@Suite("Sticky broadcasts", .timeLimit(.minutes(1)))
struct StickyBroadcastTests {
    @Test("a late listener that asks receives the latest sticky broadcast at once")
    func lateListenerReceivesLatest() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("first") }
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("latest") }
        broadcaster.greet("not sticky")  // leaves the sticky one in place

        let late = SpyListener("late", log: log)
        broadcaster.addListener(late, receivingSticky: true)
        let uninterested = SpyListener("plain", log: log)
        broadcaster.addListener(uninterested)

        #expect(log.all == ["late.greet(latest)"])
        #expect(broadcaster.hasStickyBroadcast(for: Greeting.self))
    }

    @Test("latest is per protocol, replayed in broadcast order, and cleared per protocol")
    func perProtocolAndClear() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        broadcaster.broadcast(to: Farewell.self, sticky: true) { $0.bid("f") }
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("g") }

        let one = SpyListener("one", log: log)
        broadcaster.addListener(one, receivingSticky: true)
        #expect(log.all == ["one.bid(f)", "one.greet(g)"])

        broadcaster.clearStickyBroadcast(for: Farewell.self)
        #expect(!broadcaster.hasStickyBroadcast(for: Farewell.self))
        let two = SpyListener("two", log: log)
        broadcaster.addListener(two, receivingSticky: true)
        #expect(log.all.suffix(1) == ["two.greet(g)"])
        withExtendedLifetime((one, two)) {}
    }

    @Test("re-adding a registered listener does not replay")
    func noReplayWhenAlreadyRegistered() {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        broadcaster.addListener(spy)
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("s") }
        broadcaster.addListener(spy, receivingSticky: true)
        #expect(log.all == ["a.greet(s)"])
    }

    @Test("sticky events reach late handlers, streams and registrations that ask")
    func stickyEvents() async {
        let broadcaster = Broadcaster()
        let log = DeliveryLog()
        broadcaster.post(SignedIn(user: "ada"), sticky: true)

        let token = broadcaster.addHandler(for: SignedIn.self, receivingSticky: true) {
            log.append("handler(\($0.user))")
        }
        let quiet = broadcaster.addHandler(for: SignedIn.self) { log.append("quiet(\($0.user))") }
        var iterator = broadcaster.events(of: SignedIn.self, receivingSticky: true).makeAsyncIterator()
        let first = await iterator.next()

        let spy = SpyListener("reg", log: log)
        let registration = ListenerRegistration(
            spy, for: Greeting.self, on: broadcaster, receivingSticky: true)
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("s") }
        registration.start()

        broadcaster.clearStickyEvent(for: SignedIn.self)
        let afterClear = broadcaster.addHandler(for: SignedIn.self, receivingSticky: true) {
            log.append("cleared(\($0.user))")
        }

        #expect(first == SignedIn(user: "ada"))
        #expect(log.all == ["handler(ada)", "reg.greet(s)"])
        _ = (token, quiet, afterClear)
    }

    @Test("a main-actor listener receives the sticky broadcast on the main actor")
    @MainActor
    func stickyReplayFollowsIsolation() async {
        let broadcaster = Broadcaster()
        await Task.detached { _ = broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("bg") } }.value
        let screen = StickyScreen()
        broadcaster.addListener(screen, receivingSticky: true)
        #expect(screen.received == ["bg"])  // registered on the main actor: replayed synchronously
    }
}

@MainActor
final class StickyScreen {
    var received: [String] = []
}

extension StickyScreen: @MainActor Greeting {
    func greet(_ name: String) {
        MainActor.assertIsolated()
        received.append(name)
    }
}

/// Receives a counter; records, on the main actor, every value it is told.
protocol CounterListener: AnyObject {
    func counterChanged(to value: Int)
}

final class CounterSpy: CounterListener, Sendable {
    let values = Locked<[Int]>([])

    func counterChanged(to value: Int) {
        MainActor.assertIsolated()
        values.withLock { $0.append(value) }
    }
}

@Suite("Sticky broadcasts racing registrations", .timeLimit(.minutes(1)))
struct StickyRaceTests {
    @Test("a listener registering while sticky state changes never sees an older state after a newer one")
    func replayIsNeverOvertaken() async {
        for _ in 0..<20 {
            let broadcaster = Broadcaster()
            broadcaster.broadcastOnMainActor(to: CounterListener.self, sticky: true) { $0.counterChanged(to: 0) }
            let poster = Task.detached {
                for value in 1...200 {
                    broadcaster.broadcastOnMainActor(to: CounterListener.self, sticky: true) {
                        $0.counterChanged(to: value)
                    }
                }
            }
            let spies = (0..<8).map { _ in CounterSpy() }
            let registering = Task.detached {
                for spy in spies { broadcaster.addListener(spy, receivingSticky: true) }
            }
            await poster.value
            await registering.value
            await broadcaster.waitForScheduledDeliveries()
            for spy in spies {
                let values = spy.values.withLock { $0 }
                #expect(values.last == 200)
                #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "out of order: \(values)")
            }
        }
    }
}

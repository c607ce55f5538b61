import Broadcast
import Dispatch
import Foundation
import Testing

/// The 0.1.0 spellings of `Broadcaster`'s members behave as they did.
@Suite("0.1.0 spellings: Broadcaster", .timeLimit(.minutes(1)))
struct BroadcasterCompatibilityTests {
    @Test func addListenerWithTheStickyBroadcastsLabelRegistersAndReplays() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        broadcaster.broadcast(to: Greeting.self, sticky: true) { $0.greet("kept") }
        let late = GreetingSpy("late", log: log)
        let optedOut = GreetingSpy("optedOut", log: log)

        #expect(broadcaster.addListener(late, receivingStickyBroadcasts: true))
        #expect(broadcaster.addListener(optedOut, receivingStickyBroadcasts: false))
        let made = broadcaster.broadcast(to: Greeting.self) { $0.greet("live") }

        #expect(made == 2)
        #expect(log.all == ["late:kept", "late:live", "optedOut:live"])
    }

    @Test @MainActor func listenerCountIsTheNumberOfRegistrations() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let spies = [GreetingSpy("a", log: log), GreetingSpy("b", log: log)]
        for spy in spies { broadcaster.addListener(spy) }
        let token = broadcaster.addHandler(for: SignedIn.self) { _ in }

        #expect(broadcaster.listenerCount == 3)
        #expect(broadcaster.listenerCount == broadcaster.registrationCount)
        withExtendedLifetime(token) {}
    }

    @Test func broadcastAndWaitReturnsTheExactCountOnceScheduledCallsHaveRun() async {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let screen = await GreetingScreen(broadcaster: broadcaster, log: log)
        let bystander = await Bystander(broadcaster: broadcaster)
        let plain = GreetingSpy("plain", log: log)
        broadcaster.addListener(plain)

        let made = await Task.detached {
            await broadcaster.broadcastAndWait(to: Greeting.self) { $0.greet("waited") }
        }.value

        #expect(made == 2)  // the screen and the plain spy; never the bystander
        #expect(Set(log.all) == ["screen:waited", "plain:waited"])  // both ran before it returned
        withExtendedLifetime((screen, bystander)) {}
    }

    @Test func broadcastOnMainActorAndWaitCallsOnTheMainActorAndCounts() async {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let plain = GreetingSpy("plain", log: log)
        broadcaster.addListener(plain)  // no actor: the form moves the call

        let made = await Task.detached {
            await broadcaster.broadcastOnMainActorAndWait(to: Greeting.self) { listener in
                MainActor.assertIsolated()
                listener.greet("main")
            }
        }.value

        #expect(made == 1)
        #expect(log.all == ["plain:main"])
    }

    @Test func postAndWaitCountsListenersHandlersAndStreamsOnceAllHaveRun() async {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let listener = GreetingSpy("listener", log: log)
        broadcaster.addListener(listener)
        let handler = await MainActor.run {
            broadcaster.addHandler(for: SignedIn.self) { event in
                MainActor.assertIsolated()
                log.record("handler:signedIn(\(event.name))")
            }
        }
        let events = broadcaster.events(of: SignedIn.self)

        let made = await Task.detached { await broadcaster.postAndWait(SignedIn(name: "ada")) }.value

        #expect(made == 3)
        #expect(Set(log.all) == ["listener:signedIn(ada)", "handler:signedIn(ada)"])
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == SignedIn(name: "ada"))
        withExtendedLifetime(handler) {}
    }

    @MainActor @Test func theWaitingFormsReturnTheCallsMadeSoFarWhenCancelled() async {
        let broadcaster = Broadcaster()
        let log = CallLog()
        let screen = GreetingScreen(broadcaster: broadcaster, log: log)  // called on the main actor only
        let signalling = SignallingSpy()
        broadcaster.addListener(signalling, receivingStickyBroadcasts: false, isolation: nil)  // called anywhere

        // This test holds the main actor (it blocks below without
        // suspending), so the screen's scheduled call cannot run until the
        // waiting broadcast has returned.
        let result = Locked<Int?>(nil)
        let returned = DispatchSemaphore(value: 0)
        let waiter = Task.detached {
            let made = await broadcaster.broadcastAndWait(to: Greeting.self) { listener in
                listener.greet("cancelled")
            }
            result.withLock { $0 = made }
            returned.signal()
        }
        signalling.called.wait()  // the broadcast has been made: the plain call ran, the screen's is scheduled
        waiter.cancel()
        returned.wait()

        #expect(result.withLock { $0 } == 1)  // the call made so far; the screen's had not run
        #expect(log.all.isEmpty)
        await broadcaster.waitForScheduledDeliveries()
        #expect(log.all == ["screen:cancelled"])  // it still ran, later
        withExtendedLifetime(screen) {}
    }

    @Test @MainActor func addHandlerWithTheStickyEventLabelReplaysTheStickyEvent() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        broadcaster.post(SignedIn(name: "ada"), sticky: true)

        let replayed = broadcaster.addHandler(for: SignedIn.self, receivingStickyEvent: true) {
            log.record("replayed:\($0.name)")
        }
        let live = broadcaster.addHandler(for: SignedIn.self, receivingStickyEvent: false) {
            log.record("live:\($0.name)")
        }
        let owner = GreetingSpy("owner", log: log)
        let owned = broadcaster.addHandler(for: SignedIn.self, owner: owner, receivingStickyEvent: true) {
            owner, event in log.record("\(owner.name):\(event.name)")
        }

        #expect(log.all == ["replayed:ada", "owner:ada"])
        broadcaster.post(SignedIn(name: "grace"))
        #expect(log.all == ["replayed:ada", "owner:ada", "replayed:grace", "live:grace", "owner:grace"])
        withExtendedLifetime((replayed, live, owned)) {}
    }

    @Test func eventsWithTheStickyEventLabelStartWithTheStickyEvent() async {
        let broadcaster = Broadcaster()
        broadcaster.post(SignedIn(name: "ada"), sticky: true)

        let replaying = broadcaster.events(of: SignedIn.self, receivingStickyEvent: true)
        let live = broadcaster.events(
            of: SignedIn.self, bufferingPolicy: .bufferingNewest(1), receivingStickyEvent: false)
        broadcaster.post(SignedIn(name: "grace"))

        var replayingIterator = replaying.makeAsyncIterator()
        var liveIterator = live.makeAsyncIterator()
        #expect(await replayingIterator.next() == SignedIn(name: "ada"))
        #expect(await replayingIterator.next() == SignedIn(name: "grace"))
        #expect(await liveIterator.next() == SignedIn(name: "grace"))
    }

    @Test func setStickyBroadcastToIsReplayedToLateListeners() {
        let broadcaster = Broadcaster()
        let log = CallLog()
        broadcaster.setStickyBroadcast(to: Greeting.self) { $0.greet("kept") }

        let late = GreetingSpy("late", log: log)
        broadcaster.addListener(late, receivingSticky: true)

        #expect(broadcaster.hasStickyBroadcast(for: Greeting.self))
        #expect(log.all == ["late:kept"])
    }

    @Test func setStickyBroadcastOnMainActorToIsReplayedOnTheMainActor() async {
        let broadcaster = Broadcaster()
        let log = CallLog()
        broadcaster.setStickyBroadcastOnMainActor(to: Greeting.self) { listener in
            MainActor.assertIsolated()
            listener.greet("kept")
        }
        let late = GreetingSpy("late", log: log)

        broadcaster.addListener(late, receivingSticky: true)
        await broadcaster.waitForScheduledDeliveries()

        #expect(log.all == ["late:kept"])
    }

    @Test func clearStickyEventOfForgetsTheStickyEvent() {
        let broadcaster = Broadcaster()
        broadcaster.post(SignedIn(name: "ada"), sticky: true)

        broadcaster.clearStickyEvent(of: SignedIn.self)

        #expect(broadcaster.stickyEvent(for: SignedIn.self) == nil)
    }
}

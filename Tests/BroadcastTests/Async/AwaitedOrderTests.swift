import Broadcast
import Testing

/// Awaited broadcasts: order, the concurrent option and exact counts.
@Suite("Awaited broadcasts: order and counts", .timeLimit(.minutes(1)))
struct AwaitedOrderTests {
    @Test func sequentialCallsEachListenerAfterThePreviousReturnedInRegistrationOrder() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = ["a", "b", "c"].map { name in
            SessionSpy(name, log: log) {
                // Suspends, so an overlapping call would show in the log.
                await Task.yield()
                await Task.yield()
            }
        }
        for spy in spies { broadcaster.addListener(spy) }

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }

        #expect(made == 3)
        #expect(log.all == ["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"])
    }

    @Test func concurrentRunsTheCallsAtTheSameTime() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let secondStarted = Signal()
        // The first listener returns only once the second has started: run
        // one at a time, this broadcast would never return.
        let first = SessionSpy("a", log: log) { await secondStarted.waitUnlessCancelled() }
        let second = SessionSpy("b", log: log) { secondStarted.fire() }
        broadcaster.addListener(first)
        broadcaster.addListener(second)

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) {
            await $0.userSignedOut()
        }

        #expect(made == 2)
        #expect(Set(log.all) == ["a:start", "a:end", "b:start", "b:end"])
        let events = log.all
        #expect((events.firstIndex(of: "b:start") ?? .max) < (events.firstIndex(of: "a:end") ?? .min))
    }

    @Test func concurrentReturnsOnlyOnceEveryCallHasReturned() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = (0..<20).map { index in
            SessionSpy("\(index)", log: log) {
                for _ in 0..<index { await Task.yield() }
            }
        }
        for spy in spies { broadcaster.addListener(spy) }

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) {
            await $0.userSignedOut()
        }

        #expect(made == 20)
        #expect(log.all.count { $0.hasSuffix(":end") } == 20)
    }

    @Test func theCountIsExactAmongReleasedRemovedAndNonConformingListeners() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let kept = (0..<3).map { SessionSpy("kept\($0)", log: log) }
        let removed = SessionSpy("removed", log: log)
        var released: SessionSpy? = SessionSpy("released", log: log)
        let other = AuditSpy(log: log)
        for spy in kept { broadcaster.addListener(spy) }
        broadcaster.addListener(removed)
        broadcaster.addListener(released!)
        broadcaster.addListener(other)
        broadcaster.removeListener(removed)
        released = nil

        for order in [AwaitedDeliveryOrder.sequential, .concurrent] {
            let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: order) {
                await $0.userSignedOut()
            }
            #expect(made == 3)
        }
        #expect(log.count(of: "removed:start") == 0)
        #expect(log.count(of: "released:start") == 0)
        #expect(log.all.count { $0.hasSuffix(":start") } == 6)
    }

    @Test func noListenersMeansNoCalls() async {
        let broadcaster = Broadcaster()
        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        #expect(made == 0)
    }
}

import Broadcast
import Testing

/// Semantic 5 — Re-entrancy inside a listener's call.
@Suite("Re-entrancy", .timeLimit(.minutes(1)))
struct ReentrancyTests {
    @Test func listenerAddedDuringABroadcastIsCalledOnlyByTheNextOne() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let late = PingSpy("late", log: log)
        let adder = PingSpy("adder", log: log) { _ in broadcaster.addListener(late) }
        broadcaster.addListener(adder)

        #expect(broadcaster.ping(1) == 1)
        #expect(broadcaster.ping(2) == 2)
        #expect(log.all == ["adder:1", "adder:2", "late:2"])
        withExtendedLifetime(adder) {}
    }

    @Test func listenerRemovedDuringABroadcastBeforeItsTurnIsNotCalled() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let victim = PingSpy("victim", log: log)
        let remover = PingSpy("remover", log: log) { _ in broadcaster.removeListener(victim) }
        let bystander = PingSpy("bystander", log: log)
        broadcaster.addListener(remover)
        broadcaster.addListener(bystander)
        broadcaster.addListener(victim)

        broadcaster.ping(1)
        broadcaster.ping(2)
        #expect(log.all == ["remover:1", "bystander:1", "remover:2", "bystander:2"])
        withExtendedLifetime((remover, bystander)) {}
    }

    @Test func listenerRemovingItselfIsNotCalledAgain() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let selfRemover = PingSpy("self", log: log) { _ in
            // The listener removes itself (it is the only one registered).
            for listener in broadcaster.listeners(of: Ping.self) { broadcaster.removeListener(listener) }
        }
        broadcaster.addListener(selfRemover)
        broadcaster.ping(1)
        broadcaster.ping(2)
        #expect(log.all == ["self:1"])
        #expect(broadcaster.registrationCount == 0)
        withExtendedLifetime(selfRemover) {}
    }

    @Test func listenerReleasedDuringABroadcastBeforeItsTurnIsNotCalled() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let holder = Holder(PingSpy("victim", log: log))
        weak let observed = holder.value
        let releaser = PingSpy("releaser", log: log) { _ in holder.release() }
        broadcaster.addListener(releaser)
        broadcaster.addListener(holder.value!)
        #expect(observed != nil)

        #expect(broadcaster.ping(1) == 1)
        #expect(observed == nil, "the victim should have been released inside the broadcast")
        #expect(log.all == ["releaser:1"])
        withExtendedLifetime(releaser) {}
    }

    @Test func nestedBroadcastIsDeliveredBeforeTheOuterOneContinues() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let first = PingSpy("first", log: log) { n in
            guard n == 1 else { return }
            broadcaster.ping(2)
            log.record("first:after-nested")
        }
        let second = PingSpy("second", log: log)
        broadcaster.addListener(first)
        broadcaster.addListener(second)

        broadcaster.ping(1)
        #expect(log.all == ["first:1", "first:2", "second:2", "first:after-nested", "second:1"])
        withExtendedLifetime((first, second)) {}
    }

    @Test func everyMethodCanBeCalledFromInsideAListener() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let newcomer = PingSpy("newcomer", log: log)
        let busy = PingSpy("busy", log: log) { n in
            guard n == 1 else { return }
            broadcaster.addListener(newcomer)
            log.record("count:\(broadcaster.registrationCount)")
            log.record("of:\(broadcaster.listenerCount(of: Ping.self))")
            log.record("listeners:\(broadcaster.listeners(of: Ping.self).count)")
            log.record("nested-made:\(broadcaster.ping(2))")
            broadcaster.removeListener(newcomer)
            log.record("after-remove:\(broadcaster.ping(3))")
            log.record("describes:\(broadcaster.debugDescription)")
        }
        broadcaster.addListener(busy)
        broadcaster.ping(1)
        #expect(
            log.all == [
                "busy:1", "count:2", "of:2", "listeners:2",
                "busy:2", "newcomer:2", "nested-made:2",
                "busy:3", "after-remove:1",
                "describes:Broadcaster(1 listener: PingSpy)",
            ])
        withExtendedLifetime(busy) {}
    }
}

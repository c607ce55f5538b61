import Broadcast
import Dispatch
import Foundation
import Synchronization
import Testing

/// Semantic 6 — Threads: every method is safe from any thread at once; no lock
/// is held while a listener runs; removal is effective once it returns.
@Suite("Threads", .timeLimit(.minutes(1)))
struct ThreadTests {
    @Test func manyThreadsAddRemoveReleaseAndBroadcastAtOnce() {
        let broadcaster = Broadcaster()
        let residents = (0..<8).map { _ in CountingPing() }
        for resident in residents { broadcaster.addListener(resident) }
        let threads = 16
        let rounds = 200
        let transientsMissed = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let transient = CountingPing()
                broadcaster.addListener(transient)
                broadcaster.ping(round)
                _ = broadcaster.listenerCount(of: Ping.self)
                _ = broadcaster.listeners(of: Ping.self).count
                // Registered before this thread's broadcast started: it must
                // have been called at least by that one.
                if transient.calls.count == 0 { transientsMissed.add(1, ordering: .relaxed) }
                if (thread + round).isMultiple(of: 2) { broadcaster.removeListener(transient) }
                // …otherwise released here, still registered.
            }
        }

        #expect(transientsMissed.load(ordering: .relaxed) == 0)
        for resident in residents { #expect(resident.calls.count == threads * rounds) }
        #expect(broadcaster.registrationCount == residents.count)
        #expect(broadcaster.ping(0) == residents.count)
    }

    @Test func noBroadcastStartedAfterRemovalReturnsDeliversToTheRemovedListener() {
        // Every broadcast carries a ticket drawn just before it starts. A
        // remover draws the current ticket just after `removeListener`
        // returns; a delivery of a later ticket to the removed listener is a
        // violation. Deliveries already begun on other threads may still land
        // (documented), and carry earlier tickets.
        let broadcaster = Broadcaster()
        let tickets = Atomic<Int>(0)
        let violations = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)

        final class Removable: Ping, Sendable {
            let removedAtTicket = Atomic<Int>(.max)
            let violations: @Sendable (Int) -> Void
            init(violations: @escaping @Sendable (Int) -> Void) { self.violations = violations }
            func ping(_ ticket: Int) {
                if ticket > removedAtTicket.load(ordering: .sequentiallyConsistent) { violations(ticket) }
            }
        }

        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            for _ in 0..<300 {
                let listener = Removable { _ in violations.add(1, ordering: .relaxed) }
                broadcaster.addListener(listener)
                let ticket = tickets.add(1, ordering: .sequentiallyConsistent).newValue
                delivered.add(broadcaster.ping(ticket), ordering: .relaxed)
                broadcaster.removeListener(listener)
                listener.removedAtTicket.store(
                    tickets.load(ordering: .sequentiallyConsistent),
                    ordering: .sequentiallyConsistent)
                let after = tickets.add(1, ordering: .sequentiallyConsistent).newValue
                delivered.add(broadcaster.ping(after), ordering: .relaxed)
            }
        }

        #expect(violations.load(ordering: .relaxed) == 0)
        #expect(delivered.load(ordering: .relaxed) > 0)
        #expect(broadcaster.registrationCount == 0)
    }

    @Test func removalInsideAListenerStopsTheRestOfThatBroadcastOnItsThread() {
        // On each thread, `remover` (registered first) removes its partner
        // when it receives its own thread's broadcast; the partner must never
        // receive that broadcast, whatever the other threads do meanwhile.
        let broadcaster = Broadcaster()
        let threads = 64
        let partnerLogs = (0..<threads).map { _ in EventLog() }
        let removerLogs = (0..<threads).map { _ in EventLog() }

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let partner = PingSpy("partner", log: partnerLogs[thread])
            let remover = PingSpy("remover", log: removerLogs[thread]) { n in
                if n == thread { broadcaster.removeListener(partner) }
            }
            broadcaster.addListener(remover)
            broadcaster.addListener(partner)
            broadcaster.ping(thread)
            broadcaster.removeListener(remover)
        }

        for thread in 0..<threads {
            #expect(removerLogs[thread].all.contains("remover:\(thread)"))
            #expect(!partnerLogs[thread].all.contains("partner:\(thread)"))
        }
        #expect(broadcaster.registrationCount == 0)
    }

    @Test func noLockIsHeldWhileAListenerRuns() {
        // The listener waits for another thread to add, remove, broadcast and
        // read the broadcaster; with a lock held across the call, that thread
        // would block and the wait would time out.
        let broadcaster = Broadcaster()
        let log = EventLog()
        let helperFinished = Atomic<Bool>(false)
        let blocker = PingSpy("blocker", log: log) { n in
            guard n == 1 else { return }
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let other = PingSpy("other", log: log)
                broadcaster.addListener(other)
                log.record("helper-made:\(broadcaster.ping(2))")
                broadcaster.removeListener(other)
                log.record("helper-count:\(broadcaster.registrationCount)")
                done.signal()
            }
            if done.wait(timeout: .now() + 20) == .success { helperFinished.store(true, ordering: .relaxed) }
        }
        broadcaster.addListener(blocker)
        broadcaster.ping(1)

        let finished = helperFinished.load(ordering: .relaxed)
        #expect(finished)
        #expect(log.all == ["blocker:1", "blocker:2", "other:2", "helper-made:2", "helper-count:1"])
        withExtendedLifetime(blocker) {}
    }
}

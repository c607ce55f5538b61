import Broadcast
import Testing

/// Awaited broadcasts: listeners added, removed or released during one, and
/// broadcasts nested inside a listener.
@Suite("Awaited broadcasts: re-entrancy and lifetime", .timeLimit(.minutes(1)))
struct AwaitedReentrancyTests {
    @Test func aListenerAddedDuringTheBroadcastIsCalledOnlyByTheNextOne() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let late = SessionSpy("late", log: log)
        let adder = SessionSpy("adder", log: log) {
            broadcaster.addListener(late)
            await Task.yield()
        }
        let other = SessionSpy("other", log: log)
        broadcaster.addListener(adder)
        broadcaster.addListener(other)

        let first = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        #expect(first == 2)
        #expect(log.count(of: "late:start") == 0)

        let second = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        #expect(second == 3)
        #expect(log.count(of: "late:start") == 1)
    }

    @Test func aListenerRemovedBeforeItsTurnIsNotCalled() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let removed = SessionSpy("removed", log: log)
        let remover = SessionSpy("remover", log: log) {
            await Task.yield()
            broadcaster.removeListener(removed)
        }
        broadcaster.addListener(remover)
        broadcaster.addListener(removed)

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }

        #expect(made == 1)
        #expect(log.all == ["remover:start", "remover:end"])
    }

    @Test func aListenerReleasedWhileAnotherIsSuspendedIsNotCalled() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let suspended = Signal()
        let resume = Signal()
        let waiting = SessionSpy("waiting", log: log) {
            suspended.fire()
            await resume.wait()
        }
        let holder = Holder(SessionSpy("released", log: log))
        broadcaster.addListener(waiting)
        broadcaster.addListener(holder.value!)

        let broadcast = Task {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }
        await suspended.wait()
        holder.release()
        resume.fire()

        #expect(await broadcast.value == 1)
        #expect(log.all == ["waiting:start", "waiting:end"])
    }

    @Test func aListenerMayBroadcastFromInsideItsCall() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let auditor = AuditSpy(log: log)
        let nester = SessionSpy("nester", log: log) {
            let nested = await broadcaster.broadcast(awaitingEach: AuditListener.self) { await $0.audit("signed out") }
            log.record("nested:\(nested)")
            // The same protocol again: the listeners of this broadcast,
            // this one included, are called by the nested one too.
            if log.count(of: "nester:start") == 1 {
                await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
            }
        }
        let after = SessionSpy("after", log: log)
        broadcaster.addListener(auditor)
        broadcaster.addListener(nester)
        broadcaster.addListener(after)

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }

        #expect(made == 2)
        #expect(
            log.all == [
                "nester:start", "audit:signed out", "nested:1",
                "nester:start", "audit:signed out", "nested:1", "nester:end", "after:start", "after:end",
                "nester:end", "after:start", "after:end",
            ])
    }

    @Test func aConcurrentBroadcastTakesItsSnapshotBeforeAnyCall() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let late = SessionSpy("late", log: log)
        let adder = SessionSpy("adder", log: log) { broadcaster.addListener(late) }
        broadcaster.addListener(adder)

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) {
            await $0.userSignedOut()
        }

        #expect(made == 1)
        #expect(log.count(of: "late:start") == 0)
    }
}

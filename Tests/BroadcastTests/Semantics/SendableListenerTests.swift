import Broadcast
import Foundation
import Testing

/// A listener that records the thread of each call.
final class ThreadRecordingPing: Ping, Sendable {
    let threads = Locked<[UInt]>([])
    func ping(_ n: Int) { threads.withLock { $0.append(currentThreadID()) } }
}

/// An actor whose `Ping` requirement is `nonisolated`: callable anywhere.
actor Meter: Ping {
    let calls = CallCounter()
    nonisolated func ping(_ n: Int) { calls.increment() }
}

/// A main-actor class whose conformance is isolated to the main actor: a
/// `Ping` only there.
@MainActor final class MainActorScreen {
    let log = EventLog()
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
}

extension MainActorScreen: @MainActor Ping {
    func ping(_ n: Int) { log.record("\(n)@\(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")") }
}

/// A `Sendable` listener is called where the broadcast runs whenever its
/// conformance holds there, whatever code registered it; its registering
/// actor is where a call goes only when the conformance holds there alone.
@Suite("Sendable listeners go where they are called", .timeLimit(.minutes(1)))
struct SendableListenerTests {
    @MainActor @Test func aSendableListenerRegisteredFromMainActorCodeIsCalledOnTheBroadcastingThread() async {
        // As a server's setup in top-level code registers it.
        let broadcaster = Broadcaster()
        let listener = ThreadRecordingPing()
        broadcaster.addListener(listener)
        let (made, thread, calledBeforeReturning) = await ActorTests.onNewThread {
            let made = broadcaster.ping(1)
            return (made, currentThreadID(), listener.threads.withLock { $0 })
        }
        #expect(made == 1)
        #expect(calledBeforeReturning == [thread])
    }

    @Test func anActorWithANonisolatedRequirementIsCalledWhereTheBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let meter = Meter()
        await MainActor.run { _ = broadcaster.addListener(meter) }
        let calledBeforeReturning = await ActorTests.onNewThread {
            broadcaster.ping(1)
            return meter.calls.count
        }
        #expect(calledBeforeReturning == 1)
    }

    @Test func aConformanceIsolatedToTheMainActorStillSendsTheCallThere() async {
        let broadcaster = Broadcaster()
        let screen = await MainActorScreen(broadcaster: broadcaster)
        let (made, calledBeforeReturning) = await ActorTests.onNewThread {
            let made = broadcaster.ping(1)
            return (made, screen.log.count)
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 1)
        #expect(calledBeforeReturning == 0)
        #expect(screen.log.all == ["1@main queue"])
    }

    @MainActor @Test func aListenerThatIsNotSendableIsCalledOnlyOnTheActorThatRegisteredIt() async {
        let broadcaster = Broadcaster()
        let target = ThreadRecordingPing()
        let bound = ActorBoundPing(forwardingTo: target)
        broadcaster.addListener(bound, calledOn: MainActor.shared)
        let calledBeforeReturning = await ActorTests.onNewThread {
            broadcaster.ping(1)
            return target.threads.withLock { $0.count }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(calledBeforeReturning == 0)
        #expect(target.threads.withLock { $0.count } == 1)
        withExtendedLifetime(bound) {}
    }
}

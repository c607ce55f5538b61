import Broadcast
import Foundation
import Testing

/// Awaited broadcasts: where each listener is cast and called.
@Suite("Awaited broadcasts: isolation", .timeLimit(.minutes(1)))
struct AwaitedIsolationTests {
    @Test func aScreenWithAnIsolatedConformanceIsCalledOnTheMainActorFromADetachedTask() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let screen = await SignOutScreen(broadcaster: broadcaster, log: log)

        // The isolated conformance can only be cast on the main actor: a
        // call made anywhere else would find no `SessionListener` and count 0.
        let made = await Task.detached {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }.value

        #expect(made == 1)
        #expect(log.all == ["screen:main queue"])
        withExtendedLifetime(screen) {}
    }

    @Test func aListenerWithAnIsolatedConformanceToAnotherActorIsCalledOnThatActor() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let cache = await ActorCache(log: log)
        await cache.register(with: broadcaster)

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        let madeConcurrently = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) {
            await $0.userSignedOut()
        }

        #expect(made == 1)
        #expect(madeConcurrently == 1)
        #expect(log.all == ["cache:cleared", "cache:cleared"])
        withExtendedLifetime(cache) {}
    }

    @Test func aMainActorObjectThatDoesNotConformIsNotCounted() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let bystander = await SignOutBystander(broadcaster: broadcaster)
        let spy = SessionSpy("plain", log: log)
        broadcaster.addListener(spy)

        // From a detached task the bystander's conformance cannot be checked
        // before the broadcast reaches the main actor; there it is settled.
        let made = await Task.detached {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }.value

        #expect(made == 1)
        #expect(log.all == ["plain:start", "plain:end"])
        // What the main actor found is kept: a synchronous broadcast from
        // another task no longer counts the bystander as a scheduled call.
        let synchronous = await Task.detached {
            broadcaster.broadcast(to: SessionListener.self) { _ in }
        }.value
        #expect(synchronous == 1)
        withExtendedLifetime(bystander) {}
    }

    @MainActor @Test func aListenerWithNoActorWhoseConformanceIsMainActorIsolatedIsNotCalledOffTheMainActor() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let gauge = MainActorConformingGauge(log: log)
        await Task.detached { _ = broadcaster.addListener(gauge) }.value

        // On the main actor the conformance holds: the call is made, and the
        // index keeps what the cast found, valid on the main queue only.
        let madeOnMainActor = await broadcaster.broadcast(awaitingEach: SessionListener.self) {
            await $0.userSignedOut()
        }
        // From a task with no actor it does not: the call goes to the main
        // actor, where it holds.
        let madeElsewhere = await Task.detached {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }.value

        #expect(madeOnMainActor == 1)
        #expect(madeElsewhere == 1)
        #expect(log.all == ["gauge:main queue", "gauge:main queue"])
        withExtendedLifetime(gauge) {}
    }

    @MainActor @Test func aListenerWithNoActorIsCalledWhereTheSequentialBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spy = SessionSpy("plain", log: log)
        // Registered from non-isolated code: a listener with no actor.
        await Task.detached { _ = broadcaster.addListener(spy) }.value

        // `deliver` is `nonisolated(nonsending)`: sequentially it runs on the
        // broadcasting actor, here the main actor.
        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self) { _ in
            log.record("deliver:\(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")")
        }

        #expect(made == 1)
        #expect(log.all == ["deliver:main queue"])
    }

    @MainActor @Test func aListenerWithNoActorIsCalledOffTheCallersActorWhenConcurrent() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spy = SessionSpy("plain", log: log)
        await Task.detached { _ = broadcaster.addListener(spy) }.value

        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) { _ in
            log.record("deliver:\(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")")
        }

        #expect(made == 1)
        #expect(log.all == ["deliver:elsewhere"])
    }
}

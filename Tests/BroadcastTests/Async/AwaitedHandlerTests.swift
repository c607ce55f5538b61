import Broadcast
import Foundation
import Testing

/// An event value for the awaited handlers.
struct StoreCleared: Sendable, Equatable {
    let reason: String
}

/// Awaited posts of event values to `async` closure handlers.
@Suite("Awaited handlers", .timeLimit(.minutes(1)))
struct AwaitedHandlerTests {
    @Test func anAwaitedPostAwaitsEachHandlerInRegistrationOrder() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let tokens = ["a", "b"].map { name in
            broadcaster.addAwaitedHandler(for: StoreCleared.self) { event in
                log.record("\(name):start:\(event.reason)")
                await Task.yield()
                log.record("\(name):end")
            }
        }

        let made = await broadcaster.post(awaitingEach: StoreCleared(reason: "sign-out"))

        #expect(made == 2)
        #expect(log.all == ["a:start:sign-out", "a:end", "b:start:sign-out", "b:end"])
        withExtendedLifetime(tokens) {}
    }

    @Test func concurrentHandlersRunAtTheSameTime() async {
        let broadcaster = Broadcaster()
        let secondStarted = Signal()
        let first = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in
            await secondStarted.waitUnlessCancelled()
        }
        let second = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in secondStarted.fire() }

        let made = await broadcaster.post(awaitingEach: StoreCleared(reason: "x"), order: .concurrent)

        #expect(made == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test func aReleasedOrCancelledTokenStopsItsHandler() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        var released: BroadcastToken? = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in
            log.record("released")
        }
        let cancelled = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in
            log.record("cancelled")
        }
        let kept = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in log.record("kept") }
        #expect(released != nil)
        released = nil
        cancelled.cancel()

        let made = await broadcaster.post(awaitingEach: StoreCleared(reason: "x"))

        #expect(made == 1)
        #expect(log.all == ["kept"])
        withExtendedLifetime(kept) {}
    }

    @Test func anAwaitedPostCallsAndCountsOnlyTheHandlersOfItsEventType() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let tokens = [
            broadcaster.addAwaitedHandler(for: Int.self) { log.record("int:\($0)") },
            broadcaster.addAwaitedHandler(for: StoreCleared.self) { log.record("cleared:\($0.reason)") },
            broadcaster.addAwaitedHandler(for: String.self) { log.record("string:\($0)") },
        ]

        let cleared = await broadcaster.post(awaitingEach: StoreCleared(reason: "x"))
        let number = await broadcaster.post(awaitingEach: 7, order: .concurrent)

        #expect(cleared == 1)
        #expect(number == 1)
        #expect(log.all == ["cleared:x", "int:7"])
        withExtendedLifetime(tokens) {}
    }

    @Test func synchronousPostsAndAwaitedPostsReachOnlyTheirOwnHandlers() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let awaited = broadcaster.addAwaitedHandler(for: StoreCleared.self) { _ in log.record("awaited")
        }
        let synchronous = broadcaster.addHandler(for: StoreCleared.self) { _ in
            log.record("synchronous")
        }

        #expect(broadcaster.post(StoreCleared(reason: "x")) == 1)
        #expect(await broadcaster.post(awaitingEach: StoreCleared(reason: "x")) == 1)

        #expect(log.all == ["synchronous", "awaited"])
        withExtendedLifetime((awaited, synchronous)) {}
    }

    @MainActor @Test func aHandlerCalledOnTheMainActorRunsThereWhenPostedFromADetachedTask() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let token = broadcaster.addAwaitedHandler(for: StoreCleared.self, calledOn: MainActor.shared) { _ in
            log.record(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")
        }

        let made = await Task.detached {
            await broadcaster.post(awaitingEach: StoreCleared(reason: "x"))
        }.value

        #expect(made == 1)
        #expect(log.all == ["main queue"])
        withExtendedLifetime(token) {}
    }
}

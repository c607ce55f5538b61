import Broadcast
import Dispatch
import Foundation
import Testing

/// A main-actor screen with an isolated conformance, registered from
/// main-actor code: no `@preconcurrency`, `@unchecked` or
/// `nonisolated(unsafe)` anywhere.
@MainActor final class Screen {
    private(set) var titles: [String] = []
    /// Calls that ran off the main queue (must stay 0).
    private(set) var offMainQueueCalls = 0

    init(broadcaster: Broadcaster) {
        broadcaster.addListener(self)
    }
}

extension Screen: @MainActor PostCreationListener {
    func postCreated(_ post: Post) {
        MainActor.assertIsolated()
        if !MainQueueTag.isOnMainQueue { offMainQueueCalls += 1 }
        titles.append(post.title)
    }
}

/// A main-actor object registered from main-actor code that does not conform
/// to `PostCreationListener`.
@MainActor final class Bystander {
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
}

/// A protocol whose requirements are main-actor isolated.
@MainActor protocol KeyboardListener: AnyObject {
    func keyboardChanged(height: Double)
}

/// A non-isolated class, registered from non-isolated code, that conforms to
/// the main-actor protocol.
final class KeyboardSpy: Sendable {
    let log = EventLog()
}

extension KeyboardSpy: KeyboardListener {
    func keyboardChanged(height: Double) {
        MainActor.assertIsolated()
        log.record("\(height)@\(MainQueueTag.isOnMainQueue ? "main" : "elsewhere")")
    }
}

/// Semantic 7 — Actors: a listener registered from main-actor code is called
/// only on the main actor, synchronously when the broadcast is made there,
/// through a hop otherwise; never skipped.
@Suite("Actors", .timeLimit(.minutes(1)))
struct ActorTests {
    static func post(_ title: String) -> Post { Post(title: title) }

    /// Runs `body` on a new thread (no actor, not the main queue).
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    @MainActor @Test func broadcastOnTheMainActorCallsTheScreenBeforeReturning() {
        let broadcaster = Broadcaster()
        let screen = Screen(broadcaster: broadcaster)

        let made = broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("direct")) }
        #expect(made == 1)
        #expect(screen.titles == ["direct"])

        // Through the user's typed (non-isolated) method, called on the main actor.
        broadcaster.postCreated(Self.post("typed"))
        #expect(screen.titles == ["direct", "typed"])
        #expect(screen.offMainQueueCalls == 0)
    }

    @Test func broadcastFromAPlainThreadHopsToTheMainActor() async {
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)

        let made = await Self.onNewThread {
            broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("thread")) }
        }
        let typedMade = await Self.onNewThread { () -> Bool in
            broadcaster.postCreated(Self.post("typed"))
            return true
        }
        await broadcaster.waitForScheduledDeliveries()

        #expect(made == 1)
        #expect(typedMade)
        await MainActor.run {
            #expect(screen.titles == ["thread", "typed"])
            #expect(screen.offMainQueueCalls == 0)
        }
    }

    @Test func broadcastFromADetachedTaskHopsToTheMainActorInOrder() async {
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)

        let made = await Task.detached {
            (0..<100).reduce(0) { total, n in
                total + broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("\(n)")) }
            }
        }.value
        // The barrier: every delivery scheduled before it has run.
        await broadcaster.waitForScheduledDeliveries()

        #expect(made == 100)
        await MainActor.run {
            #expect(screen.titles == (0..<100).map { "\($0)" })
            #expect(screen.offMainQueueCalls == 0)
        }
    }

    @Test func countingCallsThenTheBarrierGivesTheExactCountAfterEveryDelivery() async {
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)
        let bystander = await Bystander(broadcaster: broadcaster)
        let recorders = [PostRecorder(), PostRecorder()]
        for recorder in recorders { broadcaster.addListener(recorder) }

        let made = await Task.detached {
            await broadcaster.countedBroadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("awaited")) }
        }.value

        #expect(made == 3)
        for recorder in recorders { #expect(recorder.log.all == ["awaited"]) }
        await MainActor.run {
            // Already delivered when the barrier returned: no second barrier here.
            #expect(screen.titles == ["awaited"])
        }
        withExtendedLifetime(bystander) {}
    }

    @MainActor @Test func countingCallsOnTheMainActorCountsTheScreen() async {
        let broadcaster = Broadcaster()
        let screen = Screen(broadcaster: broadcaster)
        let made = await broadcaster.countedBroadcast(to: PostCreationListener.self) {
            $0.postCreated(Self.post("main"))
        }
        #expect(made == 1)
        #expect(screen.titles == ["main"])
    }

    @MainActor @Test func mainActorBroadcastOvertakesDeliveriesStillScheduledFromElsewhere() async {
        // Documented and deliberate: a broadcast made on the main actor is
        // delivered at once, ahead of deliveries that a background broadcast
        // scheduled earlier and that have not run yet.
        let broadcaster = Broadcaster()
        let screen = Screen(broadcaster: broadcaster)

        Self.broadcastFromAnotherThreadWhileTheMainActorIsBusy(broadcaster, title: "background")
        #expect(screen.titles == [])  // scheduled, not run: the main actor is busy
        broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("main")) }
        #expect(screen.titles == ["main"])

        await broadcaster.waitForScheduledDeliveries()
        #expect(screen.titles == ["main", "background"])
    }

    /// Blocks the main actor (synchronously) while another thread broadcasts,
    /// so that thread's delivery to main-actor listeners is still scheduled on
    /// return.
    @MainActor private static func broadcastFromAnotherThreadWhileTheMainActorIsBusy(
        _ broadcaster: Broadcaster, title: String
    ) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(post(title)) }
            done.signal()
        }
        done.wait()
    }

    @Test func mainActorProtocolListenersRegisteredElsewhereAreCalledOnTheMainActor() async {
        let broadcaster = Broadcaster()
        let spy = KeyboardSpy()
        broadcaster.addListener(spy)  // registered from non-isolated code

        let waited = await Task.detached {
            broadcaster.broadcastOnMainActor(to: KeyboardListener.self) { $0.keyboardChanged(height: 1) }
        }.value
        await broadcaster.waitForScheduledDeliveries()
        #expect(waited == 1)
        #expect(spy.log.all == ["1.0@main"])

        let scheduled = await Self.onNewThread {
            broadcaster.broadcastOnMainActor(to: KeyboardListener.self) { $0.keyboardChanged(height: 2) }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(scheduled == 1)
        #expect(spy.log.all == ["1.0@main", "2.0@main"])

        let immediate = await MainActor.run {
            let made = broadcaster.broadcastOnMainActor(to: KeyboardListener.self) { $0.keyboardChanged(height: 3) }
            return (made, spy.log.count)
        }
        #expect(immediate == (1, 3))  // synchronous on the main actor
        #expect(spy.log.all == ["1.0@main", "2.0@main", "3.0@main"])
    }

    @Test func listenerRegisteredOnAnotherActorIsCalledOnThatActor() async {
        actor Room {
            // Not Sendable: registered from the room's code, it is bound to
            // the room. (A Sendable one would be called where broadcasts
            // run: `SendableListenerTests`.)
            final class Member: Ping {
                let room: Room
                let log: EventLog
                init(room: Room, log: EventLog) {
                    self.room = room
                    self.log = log
                }
                func ping(_ n: Int) {
                    room.assertIsolated()
                    log.record("room:\(n)")
                }
            }

            let log = EventLog()
            private var member: Member?

            func join(_ broadcaster: Broadcaster) {
                let member = Member(room: self, log: log)
                self.member = member
                broadcaster.addListener(member, calledOn: self)
            }
        }

        let broadcaster = Broadcaster()
        let room = Room()
        await room.join(broadcaster)
        let made = await Self.onNewThread { broadcaster.ping(1) }
        await broadcaster.waitForScheduledDeliveries()
        let waited = await Task { @MainActor in await broadcaster.countedBroadcast(to: Ping.self) { $0.ping(2) } }.value

        #expect(made == 1)
        #expect(waited == 1)
        #expect(room.log.all == ["room:1", "room:2"])
    }

    @MainActor @Test func listenersOfTwoActorsInterleavedAreEachCalledOnTheirOwnActor() async {
        // A broadcast asks where it runs once per actor it meets, not once
        // per listener; listeners of two actors in alternation must each
        // get their own actor's answer.
        actor Room {
            // Not Sendable: bound to the room, which registers it.
            final class Member: Ping {
                let log: EventLog
                init(log: EventLog) { self.log = log }
                func ping(_ n: Int) {
                    log.record("room:\(n)@\(MainQueueTag.isOnMainQueue ? "main queue" : "room")")
                }
            }

            private var member: Member?

            func join(_ broadcaster: Broadcaster, log: EventLog) {
                let member = Member(log: log)
                self.member = member
                broadcaster.addListener(member, calledOn: self)
            }
        }

        let broadcaster = Broadcaster()
        // One log per actor: the room's call runs on the room while this
        // test goes on, so a log shared with the main-actor spies could not
        // tell, when read, whether it was already made.
        let mainActorLog = EventLog()
        let roomLog = EventLog()
        let first = PingSpy("first", log: mainActorLog)
        broadcaster.addListener(first)  // registered on the main actor
        let room = Room()
        await room.join(broadcaster, log: roomLog)
        let second = PingSpy("second", log: mainActorLog)
        broadcaster.addListener(second)  // registered on the main actor

        let made = broadcaster.ping(1)
        // Only main-actor calls write here, and none can run before this
        // line but those made before `ping` returned.
        let calledBeforeReturning = mainActorLog.all
        // The barrier: the room's one scheduled call has run.
        await broadcaster.waitForScheduledDeliveries()

        #expect(made == 3)
        #expect(calledBeforeReturning == ["first:1", "second:1"])
        #expect(mainActorLog.all == ["first:1", "second:1"])
        #expect(roomLog.all == ["room:1@room"])
    }

    @Test func isolatedConformanceIsReturnedOnlyOnItsActor() async {
        // `listeners(of:)` hands out `P` values, which only exist on the main
        // actor for `extension Screen: @MainActor P`; `listenerCount(of:)`
        // counts what a broadcast would call or schedule.
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)
        let onMain = await MainActor.run { broadcaster.listeners(of: PostCreationListener.self).count }
        let offMain = await Self.onNewThread { broadcaster.listeners(of: PostCreationListener.self).count }
        let countedOffMain = await Self.onNewThread { broadcaster.listenerCount(of: PostCreationListener.self) }
        #expect(onMain == 1)
        #expect(offMain == 0)
        #expect(countedOffMain == 1)
        withExtendedLifetime(screen) {}
    }

    @MainActor @Test func listenerCountCountsOnlyConformingMainActorListeners() {
        let broadcaster = Broadcaster()
        let screen = Screen(broadcaster: broadcaster)
        let bystander = Bystander(broadcaster: broadcaster)
        #expect(broadcaster.registrationCount == 2)
        #expect(broadcaster.listeners(of: PostCreationListener.self).count == 1)
        #expect(broadcaster.listenerCount(of: PostCreationListener.self) == 1)
        withExtendedLifetime((screen, bystander)) {}
    }

    // MARK: - Main queue vs main actor

    @Test func broadcastFromAMainQueueBlockReachesTheScreenExactlyOnce() async {
        // A plain `DispatchQueue.main.async` block runs on the main queue but
        // not in a main-actor task; on Linux a cast to an isolated conformance
        // fails there. The screen must still be called, once, on the main actor.
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)
        let made = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            DispatchQueue.main.async {
                continuation.resume(returning: Self.broadcastFromMainQueue(broadcaster, title: "queue"))
            }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 1)
        await MainActor.run {
            #expect(screen.titles == ["queue"])
            #expect(screen.offMainQueueCalls == 0)
        }
    }

    /// A non-isolated function, so the broadcast's `#isolation` is nil.
    private static func broadcastFromMainQueue(_ broadcaster: Broadcaster, title: String) -> Int {
        broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(post(title)) }
    }

    @Test func broadcastFromAMainQueueBlockAssumedIsolatedReachesTheScreenExactlyOnce() async {
        // Same, with the block claiming the main actor (`assumeIsolated`), so
        // the broadcast's `#isolation` is the main actor.
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)
        let made = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            DispatchQueue.main.async {
                let made = MainActor.assumeIsolated {
                    broadcaster.broadcast(to: PostCreationListener.self) { $0.postCreated(Self.post("assumed")) }
                }
                continuation.resume(returning: made)
            }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == 1)
        await MainActor.run {
            #expect(screen.titles == ["assumed"])
            #expect(screen.offMainQueueCalls == 0)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func mainQueueBroadcastsThatCannotCheckTheConformanceReachTheScreenThroughTheMainActorEveryTime() async {
        // Where a main-queue block cannot check the screen's isolated
        // conformance (Linux: the test runner services the main queue off the
        // main thread), every broadcast from such a block schedules the call
        // on the main actor, where the cast succeeds: the screen is reached
        // once per broadcast, in order, on the main actor, never skipped and
        // never called where the block runs. (Nothing is learned from one
        // broadcast for the next: only a cast made where the call runs can
        // produce the screen as a listener.)
        let broadcaster = Broadcaster()
        let screen = await Screen(broadcaster: broadcaster)
        var made: [Int] = []
        for title in ["first", "second", "third"] {
            made.append(await Self.onMainQueue { Self.broadcastFromMainQueue(broadcaster, title: title) })
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(made == [1, 1, 1])
        await MainActor.run {
            #expect(screen.titles == ["first", "second", "third"])
            #expect(screen.offMainQueueCalls == 0)
        }
    }

    /// Runs `body` in a plain `DispatchQueue.main.async` block (not a task).
    private static func onMainQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume(returning: body()) }
        }
    }
}

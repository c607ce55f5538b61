import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Broadcast

protocol LifePing: AnyObject { func ping(_ n: Int) }

/// A non-isolated spy; holds an optional strong reference to a broadcaster,
/// the common "listener keeps its broadcaster" pattern.
final class LifeSpy: LifePing, Sendable {
    let calls = Atomic<Int>(0)
    let broadcaster: Broadcaster?
    init(holding broadcaster: Broadcaster? = nil) { self.broadcaster = broadcaster }
    func ping(_ n: Int) { calls.add(1, ordering: .relaxed) }
}

/// A call counter that can outlive the listener that bumps it.
final class LifeCounter: Sendable {
    private let value = Atomic<Int>(0)
    func bump() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// A main-actor listener whose conformance is isolated to the main actor.
@MainActor final class LifeScreen {
    nonisolated let calls: LifeCounter
    nonisolated init(calls: LifeCounter = LifeCounter()) { self.calls = calls }
}
extension LifeScreen: @MainActor LifePing {
    func ping(_ n: Int) { calls.bump() }
}

/// A weak reference that can cross isolation.
final class LifeWeak<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?
    init(_ object: Object) { self.object = object }
}

/// A payload object, to watch what the delivery closures keep alive.
final class LifePayload: Sendable {}

/// Runs `body` on a new thread and returns once it finished.
///
/// Used from
/// main-actor code to broadcast from "elsewhere" while the main actor is
/// busy, so a scheduled delivery stays pending until the test lets it run.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    done.wait()
}

/// Leaks and lifetimes of the core: the broadcaster never keeps listeners,
/// payloads or closures alive, and is released itself when dropped.
@Suite("Reliability: lifetimes", .timeLimit(.minutes(1)))
struct ReliabilityLifetimeTests {
    @Test("no broadcasting, query or description keeps a listener alive")
    func broadcasterNeverKeepsListenersAlive() async {
        let broadcaster = Broadcaster()
        weak var weakSpy: LifeSpy?
        do {
            let spy = LifeSpy()
            weakSpy = spy
            broadcaster.addListener(spy)
            broadcaster.addListener(spy)
            #expect(broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } == 1)
            #expect(await broadcaster.countedBroadcast(to: LifePing.self) { $0.ping(2) } == 1)
            #expect(broadcaster.listeners(of: LifePing.self).count == 1)
            #expect(broadcaster.listenerCount(of: LifePing.self) == 1)
            #expect(broadcaster.debugDescription.contains("LifeSpy"))
            #expect(spy.calls.load(ordering: .relaxed) == 2)
        }
        #expect(weakSpy == nil)
        #expect(broadcaster.registrationCount == 0)
        #expect(broadcaster.broadcast(to: LifePing.self) { $0.ping(3) } == 0)
    }

    @Test("a listener with a delivery still scheduled is released at once and not called")
    @MainActor
    func pendingScheduledDeliveryDoesNotKeepItsListener() async {
        let broadcaster = Broadcaster()
        weak var weakScreen: LifeScreen?
        var screen: LifeScreen? = LifeScreen()
        weakScreen = screen
        broadcaster.addListener(screen!)
        let calls = screen!.calls
        // The main actor is busy with this test, so the delivery stays queued.
        let scheduled = Locked(0)
        onAnotherThread { scheduled.withLock { $0 = broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } } }
        #expect(scheduled.withLock { $0 } == 1)
        screen = nil
        #expect(weakScreen == nil, "the mailbox must hold its listeners weakly")
        await broadcaster.waitForScheduledDeliveries()
        #expect(calls.count == 0)
    }

    @Test("a broadcaster is released when dropped, even when its listeners hold it")
    func broadcasterIsReleasedWhenDropped() async {
        weak var weakBroadcaster: Broadcaster?
        weak var weakSpy: LifeSpy?
        do {
            let broadcaster = Broadcaster()
            weakBroadcaster = broadcaster
            let spy = LifeSpy(holding: broadcaster)
            weakSpy = spy
            broadcaster.addListener(spy)
            broadcaster.broadcast(to: LifePing.self) { $0.ping(1) }
            broadcaster.broadcast(to: LifePing.self) { $0.ping(2) }
            await broadcaster.waitForScheduledDeliveries()
            #expect(spy.calls.load(ordering: .relaxed) == 2)
        }
        #expect(weakSpy == nil)
        #expect(weakBroadcaster == nil)
    }

    @Test("scheduled deliveries still run after the broadcaster is dropped, then release it")
    func broadcasterWithPendingDeliveriesIsReleasedAfterTheyDrain() async {
        let screen = LifeScreen()
        let weakBroadcaster = await MainActor.run {
            let broadcaster = Broadcaster()
            broadcaster.addListener(screen)
            onAnotherThread { broadcaster.broadcast(to: LifePing.self) { $0.ping(1) } }
            // Dropped here with one delivery queued on the (busy) main actor.
            return LifeWeak(broadcaster)
        }
        // Let the main actor drain its mailbox: every delivery scheduled before
        // this point runs first. Bounded: no sleeping, no open-ended polling.
        for _ in 0..<100 where weakBroadcaster.object != nil || screen.calls.count == 0 {
            await MainActor.run {}
        }
        #expect(screen.calls.count == 1, "a scheduled delivery is not lost")
        #expect(weakBroadcaster.object == nil, "nothing keeps the broadcaster once its mailbox drained")
    }

    @Test("delivery closures and their payloads are released once delivered")
    func closuresAndPayloadsAreReleased() async {
        let broadcaster = Broadcaster()
        let spy = LifeSpy()
        broadcaster.addListener(spy)
        let screen = await MainActor.run {
            let screen = LifeScreen()
            broadcaster.addListener(screen)
            return screen
        }
        weak var weakSync: LifePayload?
        weak var weakScheduled: LifePayload?
        do {
            let payload = LifePayload()
            weakSync = payload
            broadcaster.broadcast(to: LifePing.self) { listener in withExtendedLifetime(payload) { listener.ping(1) } }
        }
        do {
            let payload = LifePayload()
            weakScheduled = payload
            _ = await Task.detached {
                broadcaster.broadcast(to: LifePing.self) { listener in
                    withExtendedLifetime(payload) { listener.ping(2) }
                }
            }.value
        }
        await broadcaster.waitForScheduledDeliveries()
        // The barrier resumes us from inside the drain loop, which still holds
        // the batch it is running (barrier included) until that batch ends; a
        // second barrier runs in a later batch, after that array is released.
        await broadcaster.waitForScheduledDeliveries()
        #expect(spy.calls.load(ordering: .relaxed) == 2)
        #expect(screen.calls.count == 2)
        #expect(weakSync == nil)
        #expect(weakScheduled == nil, "a drained mailbox keeps no jobs")
    }

    @Test("a handler token keeps only its handler; dropping it releases the closure")
    func handlerTokensReleaseTheirClosures() {
        weak var weakBroadcaster: Broadcaster?
        weak var weakCaptured: LifePayload?
        weak var weakOwner: LifeSpy?
        var token: BroadcastToken?
        var ownerToken: BroadcastToken?
        do {
            let broadcaster = Broadcaster()
            weakBroadcaster = broadcaster
            let captured = LifePayload()
            weakCaptured = captured
            token = broadcaster.addHandler(for: Int.self) { _ in withExtendedLifetime(captured) {} }
            let owner = LifeSpy()
            weakOwner = owner
            ownerToken = broadcaster.addHandler(for: Int.self, owner: owner) { owner, _ in owner.ping(0)
            }
            #expect(broadcaster.registrationCount == 2)
        }
        #expect(weakOwner == nil, "the owner form holds its owner weakly")
        #expect(weakBroadcaster == nil, "a token does not keep its broadcaster")
        #expect(weakCaptured != nil, "the token keeps its handler")
        #expect(token?.isCancelled == false)
        token = nil
        #expect(weakCaptured == nil)
        withExtendedLifetime(ownerToken) {}
    }

    @Test("an event stream does not keep its broadcaster alive")
    func eventStreamsDoNotKeepTheBroadcaster() {
        weak var weakBroadcaster: Broadcaster?
        var events: BroadcastEvents<Int>?
        do {
            let broadcaster = Broadcaster()
            weakBroadcaster = broadcaster
            events = broadcaster.events(of: Int.self)
        }
        #expect(weakBroadcaster == nil)
        withExtendedLifetime(events) {}
    }

    @Test("pruning keeps storage and indexes bounded under churn with many live listeners")
    func pruningKeepsStorageBounded() {
        // Through the internal storage (the broadcaster's lock is not needed:
        // this is the value it guards). 1,000 live listeners, 20,000 churn
        // operations: removals, releases, re-adds, and broadcasts' index use.
        var storage = BroadcasterStorage()
        var live: [LifeSpy] = (0..<1_000).map { _ in LifeSpy() }
        for spy in live { _ = storage.add(ListenerEntry(object: spy, isolation: nil, onlyProtocol: nil)) }
        var rng = SplitMix64(seed: 42)
        var largestTable = 0
        var largestIndex = 0
        for step in 0..<20_000 {
            let index = rng.below(live.count)
            switch rng.below(3) {
            case 0:
                _ = storage.remove(EntryKey(objectID: ObjectIdentifier(live[index]), onlyProtocol: nil))
                _ = storage.add(ListenerEntry(object: live[index], isolation: nil, onlyProtocol: nil))
            case 1:
                live[index] = LifeSpy()  // releases the old one
                _ = storage.add(ListenerEntry(object: live[index], isolation: nil, onlyProtocol: nil))
            default:
                _ = storage.add(ListenerEntry(object: live[index], isolation: nil, onlyProtocol: nil))  // again
            }
            if step.isMultiple(of: 7) { largestIndex = max(largestIndex, storage.members(of: LifePing.self).count) }
            largestTable = max(largestTable, storage.table.storageCount)
        }
        #expect(storage.table.liveEntries.count == live.count)
        #expect(largestTable <= 2 * live.count + ListenerTable.minimumCompactionThreshold)
        #expect(largestIndex <= 2 * live.count + ListenerTable.minimumCompactionThreshold)
    }
}

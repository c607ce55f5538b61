import Testing

@testable import Broadcast

/// Semantic 1 — Weak: the broadcaster never keeps a listener alive; a released
/// listener is never called, counted or returned; dead entries are pruned.
@Suite("Weak")
struct WeakTests {
    @Test func broadcasterNeverRetainsListener() {
        let broadcaster = Broadcaster()
        weak var observed: PingSpy?
        do {
            let spy = PingSpy("a", log: EventLog())
            observed = spy
            #expect(broadcaster.addListener(spy))
            #expect(broadcaster.registrationCount == 1)
            withExtendedLifetime(spy) {}
        }
        #expect(observed == nil, "the broadcaster kept a released listener alive")
    }

    @Test func releasedListenerIsNeverCalledCountedOrReturned() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let kept = PingSpy("kept", log: log)
        var released: PingSpy? = PingSpy("released", log: log)
        weak let observed = released
        broadcaster.addListener(kept)
        broadcaster.addListener(released!)
        broadcaster.ping(1)
        #expect(broadcaster.registrationCount == 2)
        #expect(broadcaster.listenerCount(of: Ping.self) == 2)

        released = nil
        #expect(observed == nil)
        let made = broadcaster.ping(2)

        #expect(log.all == ["kept:1", "released:1", "kept:2"])
        #expect(made == 1)
        #expect(broadcaster.registrationCount == 1)
        #expect(broadcaster.listenerCount(of: Ping.self) == 1)
        let listeners = broadcaster.listeners(of: Ping.self)
        #expect(listeners.count == 1)
        #expect(listeners.first === kept)
    }

    @Test func listenerReleasedBeforeAnyBroadcastIsNeverCalled() {
        // The per-protocol index is built on the first broadcast; a listener
        // that died before it must not slip in.
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        let log = EventLog()
        do { broadcaster.addListener(PingSpy("ghost", log: log)) }
        #expect(broadcaster.ping(1) == 0)
        #expect(log.all.isEmpty)
        #expect(broadcaster.listeners(of: Ping.self).isEmpty)
        #if DEBUG
            #expect(diagnostics.all.map(\.typeName) == ["PingSpy"])  // the mistake, reported
        #endif
    }

    @Test func churnDoesNotGrowTheTable() {
        // Pruning: memory follows the live listeners, not the churn.
        var storage = BroadcasterStorage()
        let survivor = CountingPing()
        _ = storage.add(ListenerEntry(object: survivor, isolation: nil, onlyProtocol: nil))
        var largestTable = 0
        var largestIndex = 0
        for round in 0..<10_000 {
            let transient = CountingPing()
            _ = storage.add(ListenerEntry(object: transient, isolation: nil, onlyProtocol: nil))
            if round.isMultiple(of: 2) {
                // Removed explicitly…
                _ = storage.remove(EntryKey(objectID: ObjectIdentifier(transient), onlyProtocol: nil))
            }
            // …or simply released at the end of the iteration.
            largestIndex = max(largestIndex, storage.members(of: Ping.self).count)
            largestTable = max(largestTable, storage.table.storageCount)
        }
        #expect(largestTable <= 2 * ListenerTable.minimumCompactionThreshold)
        #expect(largestIndex <= 2 * ListenerTable.minimumCompactionThreshold)
        #expect(storage.table.liveEntries.map(\.id) == [ObjectIdentifier(survivor)])
    }

    @Test func churnThroughThePublicAPIKeepsOnlyLiveListeners() {
        let broadcaster = Broadcaster()
        let survivor = CountingPing()
        broadcaster.addListener(survivor)
        for round in 0..<5_000 {
            let transient = CountingPing()
            broadcaster.addListener(transient)
            broadcaster.ping(round)
            #expect(transient.calls.count == 1)
            if round.isMultiple(of: 2) { broadcaster.removeListener(transient) }
        }
        #expect(survivor.calls.count == 5_000)
        #expect(broadcaster.registrationCount == 1)
        #expect(broadcaster.ping(0) == 1)
    }
}

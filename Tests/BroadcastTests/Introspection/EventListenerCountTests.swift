import Broadcast
import Testing

/// A value posted to the counting tests' listeners.
struct Heartbeat: Sendable {
    let beat: Int
}

/// Another event type, whose listeners a count of heartbeats leaves out.
struct Pulse: Sendable {}

/// An ``EventListener`` object of heartbeats, held weakly by the broadcaster.
final class HeartbeatMonitor: EventListener, Sendable {
    let beats = CallCounter()

    func receive(_ event: Heartbeat) { beats.increment() }
}

/// An observer that keeps its handler's token, so that both go together.
final class HeartbeatObserver: Sendable {
    let beats = CallCounter()
    private let token = Locked<BroadcastToken?>(nil)

    init(observing broadcaster: Broadcaster) {
        token.withLock {
            $0 = broadcaster.addHandler(for: Heartbeat.self, owner: self) { observer, _ in
                observer.beats.increment()
            }
        }
    }
}

/// `listenerCount(for:)`: the closure handlers, streams and ``EventListener``
/// objects a post of the event would reach, followed through their lifetimes.
@Suite("Counting an event's listeners", .timeLimit(.minutes(1)))
struct EventListenerCountTests {
    @Test func aHandlerCountsUntilItsTokenIsCancelledOrReleased() {
        let broadcaster = Broadcaster()
        let cancelled = broadcaster.addHandler(for: Heartbeat.self) { _ in }
        var released: BroadcastToken? = broadcaster.addHandler(for: Heartbeat.self) { _ in }
        let kept = broadcaster.addHandler(for: Heartbeat.self) { _ in }
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 3)

        cancelled.cancel()
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 2)

        released = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)
        #expect(broadcaster.post(Heartbeat(beat: 1)) == 1)
        withExtendedLifetime((released, kept)) {}
    }

    @Test func anEventListenerObjectCountsWhileItLives() {
        let broadcaster = Broadcaster()
        let kept = HeartbeatMonitor()
        var doomed: HeartbeatMonitor? = HeartbeatMonitor()
        broadcaster.addListener(kept)
        broadcaster.addListener(doomed!)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 2)
        broadcaster.post(Heartbeat(beat: 1))  // the objects' typed calls are made

        doomed = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)

        broadcaster.removeListener(kept)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        #expect(kept.beats.count == 1)
    }

    /// An actor whose handler a post made elsewhere schedules there.
    actor Ward {
        let beats = CallCounter()

        func listen(on broadcaster: Broadcaster) -> BroadcastToken {
            broadcaster.addHandler(for: Heartbeat.self, calledOn: self) { [beats] _ in beats.increment() }
        }
    }

    @Test func handlersAndObjectsTogetherCountAsAPostReachesThem() async {
        let broadcaster = Broadcaster()
        let monitor = HeartbeatMonitor()
        broadcaster.addListener(monitor)
        let token = broadcaster.addHandler(for: Heartbeat.self) { _ in }
        let ward = Ward()
        let onWard = await ward.listen(on: broadcaster)

        // Counted as the post counts them: the ward's handler is scheduled
        // on the ward from here.
        let count = broadcaster.listenerCount(for: Heartbeat.self)
        #expect(count == 3)
        #expect(broadcaster.post(Heartbeat(beat: 1)) == count)
        await broadcaster.waitForScheduledDeliveries()
        #expect(ward.beats.count == 1)
        // The count of the protocol counts the object only.
        #expect(broadcaster.listenerCount(of: (any EventListener<Heartbeat>).self) == 1)
        withExtendedLifetime((monitor, token, onWard)) {}
    }

    @Test func theProtocolsCountLeavesOutHandlersScheduledOnAnActor() async {
        let broadcaster = Broadcaster()
        let ward = Ward()
        let onWard = await ward.listen(on: broadcaster)

        // From here a post schedules the ward's handler; a count of the
        // protocol's listeners counts objects only.
        #expect(broadcaster.listenerCount(of: (any EventListener<Heartbeat>).self) == 0)
        #expect(broadcaster.listeners(of: (any EventListener<Heartbeat>).self).isEmpty)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)
        withExtendedLifetime(onWard) {}
    }

    @Test @MainActor func listenersOfOtherEventsAndAwaitedHandlersAreNotCounted() {
        let broadcaster = Broadcaster()
        let pulse = broadcaster.addHandler(for: Pulse.self) { _ in }
        let awaited = broadcaster.addAwaitedHandler(for: Heartbeat.self) { _ in }
        let observable = ObservableStickyEvent(for: Heartbeat.self, on: broadcaster)

        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        #expect(broadcaster.listenerCount(for: Pulse.self) == 1)
        #expect(broadcaster.post(Heartbeat(beat: 1)) == 0)
        withExtendedLifetime((pulse, awaited, observable)) {}
    }

    @Test func aHandlerWhoseOwnerIsGoneCountsUntilItsTokenGoes() {
        let broadcaster = Broadcaster()
        var owner: HeartbeatMonitor? = HeartbeatMonitor()
        var token: BroadcastToken? = broadcaster.addHandler(for: Heartbeat.self, owner: owner!) { _, _ in }

        owner = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)
        token = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        withExtendedLifetime(token) {}
    }

    /// Restated from Signals: the subscriber count follows the observers'
    /// lifetimes.
    @Test func theCountFollowsTheObserversLifetimes() {
        let broadcaster = Broadcaster()
        var first: HeartbeatObserver? = HeartbeatObserver(observing: broadcaster)
        var second: HeartbeatObserver? = HeartbeatObserver(observing: broadcaster)
        var monitor: HeartbeatMonitor? = HeartbeatMonitor()
        broadcaster.addListener(monitor!)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 3)

        first = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 2)
        monitor = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)
        broadcaster.post(Heartbeat(beat: 1))
        #expect(second?.beats.count == 1)
        second = nil
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        withExtendedLifetime((first, monitor)) {}
    }

    @Test func aRegistrationsHandlerCountsWhileStarted() {
        let broadcaster = Broadcaster()
        let registrations = ListenerRegistrations(broadcaster: broadcaster)
        registrations.addHandler(for: Heartbeat.self, lifespan: .visible) { _ in }
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)

        registrations.start(.visible)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)

        registrations.stop(.visible)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
    }

    @Test func aStreamCountsUntilItsConsumingTaskIsCancelled() async {
        let broadcaster = Broadcaster()
        let beats = broadcaster.events(of: Heartbeat.self)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)
        let recorded = CallCounter()
        let reader = Task {
            for await _ in beats { recorded.increment() }
        }

        reader.cancel()
        await reader.value

        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        #expect(broadcaster.post(Heartbeat(beat: 1)) == 0)
    }

    @Test func aStreamCountsUntilItIsReleased() {
        let broadcaster = Broadcaster()
        var beats: BroadcastEvents<Heartbeat>? = broadcaster.events(of: Heartbeat.self)
        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 1)

        beats = nil

        #expect(broadcaster.listenerCount(for: Heartbeat.self) == 0)
        withExtendedLifetime(beats) {}
    }
}

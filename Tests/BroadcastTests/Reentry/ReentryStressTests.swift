import Broadcast
import Dispatch
import Foundation
import Synchronization
import Testing

/// What the stress threads broadcast to.
protocol StressReentryPing: AnyObject { func ping() }

/// Carries the stress test's sticky payloads.
protocol StressReentryCarrier: AnyObject { func carry(_ payload: StressReentryPayload) }

/// An event value posted from the payloads' deinitializers.
struct StressReentryNote: Sendable {}

/// The counters of one stress run.
///
/// Atomics only: this suite runs under
/// ThreadSanitizer, which sees them (it does not see `Mutex` on Linux).
final class ReentryStressWorld: Sendable {
    let broadcaster = Broadcaster()
    let stopped = Atomic<Bool>(false)
    let broadcastsMade = Atomic<Int>(0)
    let postsMade = Atomic<Int>(0)
    let listenersMade = Atomic<Int>(0)
    let listenersGone = Atomic<Int>(0)
    let payloadsMade = Atomic<Int>(0)
    let payloadsGone = Atomic<Int>(0)
    let missedByTransient = Atomic<Int>(0)

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Broadcasts a ping and counts it.
    func ping() {
        broadcastsMade.add(1, ordering: .relaxed)
        broadcaster.broadcast(to: StressReentryPing.self) { $0.ping() }
    }

    /// Posts a note and counts it.
    func post() {
        postsMade.add(1, ordering: .relaxed)
        broadcaster.post(StressReentryNote())
    }
}

/// Counts the pings and notes it receives.
final class StressReentryCounter: StressReentryPing, EventListener, Sendable {
    let pings = Atomic<Int>(0)
    let notes = Atomic<Int>(0)

    func ping() { pings.add(1, ordering: .relaxed) }
    func receive(_ event: StressReentryNote) { notes.add(1, ordering: .relaxed) }
}

/// A listener that unregisters itself and broadcasts from its deinit.
final class StressSelfRemovingListener: StressReentryPing, Sendable {
    private let world: ReentryStressWorld

    init(world: ReentryStressWorld) {
        self.world = world
        world.listenersMade.add(1, ordering: .relaxed)
    }

    func ping() {}

    deinit {
        world.broadcaster.removeListener(self)
        world.ping()
        world.listenersGone.add(1, ordering: .relaxed)
    }
}

/// A sticky payload that posts from its deinit.
final class StressReentryPayload: Sendable {
    private let world: ReentryStressWorld

    init(world: ReentryStressWorld) {
        self.world = world
        world.payloadsMade.add(1, ordering: .relaxed)
    }

    deinit {
        world.post()
        world.payloadsGone.add(1, ordering: .relaxed)
    }
}

/// Listeners whose deinit unregisters them and broadcasts, created and
/// released on two threads while two others broadcast, register, and
/// replace a sticky broadcast whose payload posts from its deinit.
///
/// Size: `BROADCAST_REENTRY_STRESS_ITERATIONS` per thread (default 6,000,
/// about 5 s in a debug build on two cores). Every thread stops once the test is
/// cancelled (its time limit).
@Suite("Re-entry stress", .timeLimit(.minutes(2)))
struct ReentryStressTests {
    // fails on the 1.0 core: `Fatal error: Recursive call to lock Mutex`
    // (a replaced sticky payload is released under the broadcaster's lock;
    // and a listener's last strong reference, loaded under the lock by
    // another thread's broadcast while it updates the protocol's index, is
    // dropped there). Under ThreadSanitizer's lock the same re-entry
    // deadlocks, and the test ends at its time limit.
    @Test func listenersAndStickyPayloadsThatCallBackFromTheirDeinitLoseNothing() async {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["BROADCAST_REENTRY_STRESS_ITERATIONS"].flatMap(Int.init) ?? 6_000
        let world = ReentryStressWorld()
        let persistent = StressReentryCounter()
        world.broadcaster.addListener(persistent)

        let group = DispatchGroup()
        func spawn(_ work: @escaping @Sendable () -> Void) {
            group.enter()
            Thread {
                work()
                group.leave()
            }
            .start()
        }
        for _ in 0..<2 {
            spawn { Self.churn(world, iterations: iterations) }
            spawn { Self.broadcastAndRegister(world, iterations: iterations) }
        }
        // Cancelled (the time limit), the workers stop, and the test stops
        // waiting for them: a worker stuck in the broadcaster must not keep
        // the test from ending.
        let finished = StressFinish()
        group.notify(queue: .global()) { finished.finish() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { finished.install($0) }
        } onCancel: {
            world.stopped.store(true, ordering: .relaxed)
            finished.finish()
        }
        guard !world.isStopped else {
            Issue.record("stopped before the workers finished")
            return
        }
        // The last sticky payload goes now, and posts.
        world.broadcaster.clearAllStickyBroadcasts()
        // Calls to listeners the main actor settles hold payloads until they run there.
        #expect(await drained(world.broadcaster))

        let made = world.broadcastsMade.load(ordering: .relaxed)
        let posted = world.postsMade.load(ordering: .relaxed)
        #expect(world.listenersGone.load(ordering: .relaxed) == world.listenersMade.load(ordering: .relaxed))
        #expect(world.payloadsGone.load(ordering: .relaxed) == world.payloadsMade.load(ordering: .relaxed))
        #expect(persistent.pings.load(ordering: .relaxed) == made, "every broadcast reached the listener")
        #expect(persistent.notes.load(ordering: .relaxed) == posted, "every post reached the listener")
        #expect(world.missedByTransient.load(ordering: .relaxed) == 0)
        #expect(world.broadcaster.registrationCount == 1)
        // Not vacuous.
        #expect(made >= 2 * iterations)
        #expect(posted >= iterations)
        withExtendedLifetime(persistent) {}
    }

    /// Creates listeners, registers them and releases them: most at once,
    /// while other threads' broadcasts may be looking at them, some after a
    /// broadcast of their own.
    private static func churn(_ world: ReentryStressWorld, iterations: Int) {
        var kept: [StressSelfRemovingListener] = []
        for round in 0..<iterations where !world.isStopped {
            let listener = StressSelfRemovingListener(world: world)
            world.broadcaster.addListener(listener)
            if round % 8 == 0 {
                world.ping()
                kept.append(listener)
                if kept.count > 2 { kept.removeFirst() }
            }
        }
        kept.removeAll()
    }

    /// Broadcasts, registers a transient listener around its own broadcast,
    /// and replaces the sticky payload.
    private static func broadcastAndRegister(_ world: ReentryStressWorld, iterations: Int) {
        for round in 0..<iterations where !world.isStopped {
            world.ping()
            let transient = StressReentryCounter()
            world.broadcaster.addListener(transient)
            world.ping()
            if transient.pings.load(ordering: .relaxed) == 0 { world.missedByTransient.add(1, ordering: .relaxed) }
            world.broadcaster.removeListener(transient)
            let payload = StressReentryPayload(world: world)
            world.broadcaster.broadcast(to: StressReentryCarrier.self, with: payload, sticky: true) {
                $0.carry($1)
            }
            if round % 16 == 0 { world.broadcaster.clearStickyBroadcast(for: StressReentryCarrier.self) }
        }
    }
}

/// Resumes the test once, when its workers have finished or when it is
/// cancelled, whichever comes first.
final class StressFinish: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var isFinished = false
    }

    private let state = Locked(State())

    /// Waits in `continuation`, or resumes it at once if already finished.
    func install(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            if state.isFinished { return true }
            state.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func finish() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isFinished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

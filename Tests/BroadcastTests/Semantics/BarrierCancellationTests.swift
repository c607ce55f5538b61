import Broadcast
import Dispatch
import Testing

/// `waitForScheduledDeliveries()` is one barrier that honours cancellation.
@Suite("Waiting for scheduled deliveries", .timeLimit(.minutes(1)))
struct BarrierCancellationTests {
    @Test func aCancelledWaitReturnsWhileACallIsStillScheduled() async {
        let broadcaster = Broadcaster()
        let executor = HeldExecutor()
        let actor = HeldActor(executor: executor)
        let listener = CountingPing()
        await actor.register(listener, with: broadcaster)

        executor.hold()
        let made = broadcaster.broadcast(to: Ping.self) { $0.ping(1) }  // scheduled on the held actor
        let waiter = Task { await broadcaster.waitForScheduledDeliveries() }
        waiter.cancel()
        await waiter.value

        #expect(made == 1)
        #expect(listener.calls.count == 0)  // returned, though the call has not run
        executor.release()
        await broadcaster.waitForScheduledDeliveries()
        #expect(listener.calls.count == 1)  // the call still ran, later
    }

    @Test func anUncancelledWaitReturnsOnceTheHeldCallHasRun() async {
        let broadcaster = Broadcaster()
        let executor = HeldExecutor()
        let actor = HeldActor(executor: executor)
        let listener = CountingPing()
        await actor.register(listener, with: broadcaster)

        executor.hold()
        broadcaster.broadcast(to: Ping.self) { $0.ping(1) }
        let waiter = Task {
            await broadcaster.waitForScheduledDeliveries()
            return listener.calls.count
        }
        executor.release()

        #expect(await waiter.value == 1)
    }
}

/// A serial executor that can hold its jobs: a call scheduled on its actor
/// stays scheduled, without blocking any thread, until ``release()``.
final class HeldExecutor: SerialExecutor, Sendable {
    private struct State {
        var isHeld = false
        var held: [UnownedJob] = []
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "HeldExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let runs = state.withLock { state in
            if state.isHeld { state.held.append(job) }
            return !state.isHeld
        }
        if runs { run(job) }
    }

    /// Holds the jobs enqueued from now on.
    func hold() {
        state.withLock { $0.isHeld = true }
    }

    /// Runs the held jobs, in order, and every later job at once.
    func release() {
        let held = state.withLock { state in
            state.isHeld = false
            defer { state.held = [] }
            return state.held
        }
        for job in held { run(job) }
    }

    private func run(_ job: UnownedJob) {
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// An actor that runs on a ``HeldExecutor``.
actor HeldActor {
    private let executor: HeldExecutor

    init(executor: HeldExecutor) {
        self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    private var bound: [ActorBoundPing] = []

    /// Registers a listener bound to this actor that forwards to `target`:
    /// its calls are made here, whatever thread broadcasts.
    func register(_ target: any Ping & Sendable, with broadcaster: Broadcaster) {
        let listener = ActorBoundPing(forwardingTo: target)
        bound.append(listener)
        broadcaster.addListener(listener, calledOn: self)
    }
}

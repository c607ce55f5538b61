import Broadcast
import Testing

/// Awaited broadcasts: cancellation of the broadcasting task, and errors
/// thrown by listeners.
@Suite("Awaited broadcasts: cancellation and errors", .timeLimit(.minutes(1)))
struct AwaitedCancellationTests {
    @Test func cancellingStopsTheListenersNotYetStartedAndTheStartedOneSeesIt() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let started = Signal()
        let resume = Signal()
        let first = SessionSpy("a", log: log) {
            started.fire()
            await resume.wait()
            log.record("a:cancelled=\(Task.isCancelled)")
        }
        let second = SessionSpy("b", log: log)
        broadcaster.addListener(first)
        broadcaster.addListener(second)

        let broadcast = Task {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }
        await started.wait()
        broadcast.cancel()
        resume.fire()

        #expect(await broadcast.value == 1)
        #expect(log.all == ["a:start", "a:cancelled=true", "a:end"])
    }

    @Test(arguments: [AwaitedDeliveryOrder.sequential, .concurrent])
    func aBroadcastFromACancelledTaskCallsNoListener(order: AwaitedDeliveryOrder) async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = (0..<3).map { SessionSpy("\($0)", log: log) }
        for spy in spies { broadcaster.addListener(spy) }

        let made = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await broadcaster.broadcast(awaitingEach: SessionListener.self, order: order) {
                await $0.userSignedOut()
            }
        }.value

        #expect(made == 0)
        #expect(log.all.isEmpty)
    }

    @Test func concurrentCallsSeeTheBroadcastsCancellation() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let bothStarted = (Signal(), Signal())
        let resume = Signal()
        let first = SessionSpy("a", log: log) {
            bothStarted.0.fire()
            await resume.wait()
            log.record("a:cancelled=\(Task.isCancelled)")
        }
        let second = SessionSpy("b", log: log) {
            bothStarted.1.fire()
            await resume.wait()
            log.record("b:cancelled=\(Task.isCancelled)")
        }
        broadcaster.addListener(first)
        broadcaster.addListener(second)

        let broadcast = Task {
            await broadcaster.broadcast(awaitingEach: SessionListener.self, order: .concurrent) {
                await $0.userSignedOut()
            }
        }
        await bothStarted.0.wait()
        await bothStarted.1.wait()
        broadcast.cancel()
        resume.fire()

        #expect(await broadcast.value == 2)
        #expect(log.count(of: "a:cancelled=true") == 1)
        #expect(log.count(of: "b:cancelled=true") == 1)
    }

    @Test func sequentialStopsAtTheFirstErrorAndThrowsIt() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = [FlushSpy("a", log: log), FlushSpy("b", log: log, fails: true), FlushSpy("c", log: log)]
        for spy in spies { broadcaster.addListener(spy) }

        // Typed throws: a closure that throws `FlushError` makes the
        // broadcast throw `FlushError`, no cast needed.
        var thrown: FlushError?
        do {
            try await broadcaster.broadcast(awaitingEach: CacheFlushing.self) { listener throws(FlushError) in
                try await listener.flush()
            }
        } catch {
            thrown = error
        }

        #expect(thrown == FlushError(name: "b"))
        #expect(log.all == ["a:flush", "b:flush"])
    }

    @Test func concurrentThrowsTheFirstErrorAndCancelsTheCallsStillRunning() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let neverFired = Signal()
        let slow = FlushSpy("slow", log: log) {
            // Suspended until the failing call cancels it.
            await neverFired.waitUnlessCancelled()
            if Task.isCancelled { log.record("slow:saw cancellation") }
        }
        let failing = FlushSpy("failing", log: log, fails: true)
        broadcaster.addListener(slow)
        broadcaster.addListener(failing)

        var thrown: FlushError?
        do {
            try await broadcaster.broadcast(awaitingEach: CacheFlushing.self, order: .concurrent) {
                listener throws(FlushError) in
                try await listener.flush()
            }
        } catch {
            thrown = error
        }

        #expect(thrown == FlushError(name: "failing"))
        // The broadcast returned only after the slow call had finished.
        #expect(log.count(of: "slow:saw cancellation") == 1)
    }

    @Test func aBroadcastWhoseListenersDoNotThrowReturnsTheirCount() async throws {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = [FlushSpy("a", log: log), FlushSpy("b", log: log)]
        for spy in spies { broadcaster.addListener(spy) }

        let made = try await broadcaster.broadcast(awaitingEach: CacheFlushing.self) { try await $0.flush() }

        #expect(made == 2)
        #expect(log.all == ["a:flush", "b:flush"])
    }
}

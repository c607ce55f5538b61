import Broadcast
import Foundation
import Testing

/// A tap that records every observation, and runs an optional action in it.
final class RecordingTap: BroadcastTap {
    private let observations = Locked<[BroadcastObservation]>([])
    private let action: (@Sendable (BroadcastObservation) -> Void)?

    init(onObserve action: (@Sendable (BroadcastObservation) -> Void)? = nil) {
        self.action = action
    }

    func observe(_ observation: BroadcastObservation) {
        observations.withLock { $0.append(observation) }
        action?(observation)
    }

    var all: [BroadcastObservation] { observations.withLock { $0 } }
}

private struct Tapped: Sendable, Equatable {
    let n: Int
}

private actor Worker {}

private struct ListenerFailed: Error {}

private protocol AwaitedPing: AnyObject, Sendable {
    func ping() async throws
}

private final class AwaitedPingSpy: AwaitedPing {
    let log: EventLog
    let fails: Bool
    init(log: EventLog, fails: Bool = false) {
        self.log = log
        self.fails = fails
    }
    func ping() async throws {
        log.record("ping")
        if fails { throw ListenerFailed() }
    }
}

@Suite("A tap sees each broadcast and post once, after its synchronous part", .timeLimit(.minutes(1)))
struct BroadcastTapTests {
    @Test("A broadcast and a post, sticky or not, are each observed once with what they returned")
    func synchronousBroadcastsAndPosts() async {
        let tap = RecordingTap()
        let broadcaster = Broadcaster(tap: tap)
        let log = EventLog()
        let spy = PingSpy("a", log: log)
        broadcaster.addListener(spy)
        let token = broadcaster.addHandler(for: Tapped.self) { log.record("tapped:\($0.n)") }

        let broadcast = broadcaster.broadcast(to: Ping.self) { $0.ping(1) }
        let sticky = broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(2) }
        let post = broadcaster.post(Tapped(n: 3))
        let stickyPost = broadcaster.post(Tapped(n: 4), sticky: true)

        let seen = tap.all
        #expect(seen.map(\.kind) == [.broadcast, .broadcast, .post, .post])
        #expect(seen.map(\.isSticky) == [false, true, false, true])
        #expect(seen.map(\.calledCount) == [broadcast, sticky, post, stickyPost])
        #expect([broadcast, sticky, post, stickyPost] as [Int] == [1, 1, 1, 1])
        #expect(seen.map(\.scheduledCount) == [0, 0, 0, 0])
        #expect(
            seen.map(\.subjectName) == Array(repeating: String(reflecting: (any Ping).self), count: 2)
                + Array(repeating: String(reflecting: Tapped.self), count: 2))
        #expect(seen.allSatisfy { $0.duration >= .zero && !$0.ranOnMainThread })
        #expect(log.all == ["a:1", "a:2", "tapped:3", "tapped:4"])
        withExtendedLifetime(token) {}
    }

    @Test("Calls scheduled on an actor or on the main actor are counted as scheduled, not called")
    func scheduledCalls() async {
        let tap = RecordingTap()
        let broadcaster = Broadcaster(tap: tap)
        let log = EventLog()
        let here = PingSpy("here", log: log)
        let onWorker = PingSpy("worker", log: log)
        let onMain = PingSpy("main", log: log)
        broadcaster.addListener(here)
        broadcaster.addListener(onWorker, calledOn: Worker())
        broadcaster.addListener(onMain, calledOn: MainActor.shared)
        let token = await broadcaster.addHandler(for: Tapped.self, calledOn: MainActor.shared) { _ in
            log.record("handler")
        }

        let broadcast = Thread.runAndWait { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        let post = Thread.runAndWait { broadcaster.post(Tapped(n: 1)) }
        await broadcaster.waitForScheduledDeliveries()

        // Each listener with an actor counts as scheduled for a post too,
        // until its actor's cast shows it is no `Tapped` listener: what the
        // tap sees is what the post returned, however the core counts.
        let seen = tap.all
        #expect(broadcast == 3 && post >= 1)
        #expect(seen.map(\.calledCount) == [1, 0])
        #expect(seen.map(\.scheduledCount) == [2, post])
        #expect(seen.map { $0.calledCount + $0.scheduledCount } == [broadcast, post])
        #expect(log.all.sorted() == ["handler", "here:1", "main:1", "worker:1"])
        withExtendedLifetime(token) {}
    }

    @Test("An awaited broadcast and post are observed once their calls return, or once one throws")
    func awaitedBroadcasts() async {
        let tap = RecordingTap()
        let broadcaster = Broadcaster(tap: tap)
        let log = EventLog()
        let first = AwaitedPingSpy(log: log)
        let failing = AwaitedPingSpy(log: log, fails: true)
        let token = broadcaster.addAwaitedHandler(for: Tapped.self) { _ in log.record("awaited") }

        broadcaster.addListener(first)
        let made = try? await broadcaster.broadcast(awaitingEach: (any AwaitedPing).self) { try await $0.ping() }
        let posted = await broadcaster.post(awaitingEach: Tapped(n: 1))
        broadcaster.addListener(failing)
        await #expect(throws: ListenerFailed.self) {
            try await broadcaster.broadcast(awaitingEach: (any AwaitedPing).self) { try await $0.ping() }
        }

        let seen = tap.all
        #expect(seen.map(\.kind) == [.awaitedBroadcast, .awaitedBroadcast, .awaitedBroadcast])
        #expect(made == 1 && posted == 1)
        #expect(seen.map(\.calledCount) == [1, 1, 2])
        #expect(seen.dropFirst().first?.subjectName == String(reflecting: Tapped.self))
        #expect(log.all == ["ping", "awaited", "ping", "ping"])
        withExtendedLifetime((token, first, failing)) {}
    }

    @Test("A tap may call back into its broadcaster: what it broadcasts is delivered, not observed again")
    func tapCallsBack() async {
        let log = EventLog()
        let holder = Locked<Broadcaster?>(nil)
        let rounds = Locked(0)
        let tap = RecordingTap { _ in
            guard let broadcaster = holder.withLock({ $0 }) else { return }
            // Bounded, so that a tap observing its own broadcasts fails the
            // expectations below rather than recursing forever.
            let round = rounds.withLock { count in
                count += 1
                return count
            }
            guard round <= 2 else { return }
            let late = PingSpy("late", log: log)
            broadcaster.addListener(late)
            log.record("count:\(broadcaster.listenerCount(of: Ping.self))")
            broadcaster.broadcast(to: Ping.self) { $0.ping(2) }
            broadcaster.post(Tapped(n: 2))
            broadcaster.removeListener(late)
        }
        let broadcaster = Broadcaster(tap: tap)
        holder.withLock { $0 = broadcaster }
        let spy = PingSpy("a", log: log)
        broadcaster.addListener(spy)

        let made = broadcaster.broadcast(to: Ping.self) { $0.ping(1) }

        #expect(made == 1)
        #expect(tap.all.count == 1)
        #expect(log.all == ["a:1", "count:2", "a:2", "late:2"])
        holder.withLock { $0 = nil }
    }

    @Test("A task the tap starts is inside it: its posts are delivered, not observed; a detached task's are observed")
    func tasksTheTapStarts() async {
        let log = EventLog()
        let holder = Locked<Broadcaster?>(nil)
        let started = Locked<[Task<Void, Never>]>([])
        let tap = RecordingTap { observation in
            guard observation.subjectName.hasSuffix("Tapped"), let broadcaster = holder.withLock({ $0 }) else { return }
            let round = started.withLock { $0.count }
            guard round == 0 else { return }
            let inherited = Task { _ = broadcaster.post(Tapped(n: 2)) }
            let detached = Task.detached { _ = broadcaster.post(Tapped(n: 3)) }
            started.withLock { $0 = [inherited, detached] }
        }
        let broadcaster = Broadcaster(tap: tap)
        holder.withLock { $0 = broadcaster }
        let token = broadcaster.addHandler(for: Tapped.self) { log.record("tapped:\($0.n)") }

        broadcaster.post(Tapped(n: 1))
        for task in started.withLock({ $0 }) { await task.value }

        #expect(Set(log.all) == ["tapped:1", "tapped:2", "tapped:3"])
        #expect(tap.all.count == 2)
        holder.withLock { $0 = nil }
        withExtendedLifetime(token) {}
    }

    @Test("The posts the library makes for a sticky post's observers are not observed")
    func bookkeepingPostsAreNotObserved() {
        let tap = RecordingTap()
        let broadcaster = Broadcaster(tap: tap)
        let changes = Locked(0)
        let token = broadcaster.observeStickyEventChanges(of: Tapped.self) { _ in changes.withLock { $0 += 1 } }

        broadcaster.post(Tapped(n: 1), sticky: true)

        #expect(changes.withLock { $0 } == 1)
        #expect(tap.all.map(\.subjectName) == [String(reflecting: Tapped.self)])
        token.cancel()
    }

    @Test("A sticky post read through an ObservableStickyEvent is observed once, saying where it ran")
    @MainActor
    func observableStickyEventAddsNoObservation() async {
        let tap = RecordingTap()
        let broadcaster = Broadcaster(tap: tap)
        let observable = ObservableStickyEvent(for: Tapped.self, on: broadcaster)

        // On Linux the main actor may run on another thread than the main one
        // (`dispatchMain()`): the observation says where the post ran.
        let onMainThread = Thread.isMainThread
        broadcaster.post(Tapped(n: 1), sticky: true)
        await broadcaster.waitForScheduledDeliveries()

        #expect(observable.value == Tapped(n: 1))
        #expect(tap.all.map(\.kind) == [.post])
        #expect(tap.all.map(\.ranOnMainThread) == [onMainThread])
    }

    @Test("A tap is set once: a second setTap returns false and changes nothing")
    func setOnce() {
        let first = RecordingTap()
        let second = RecordingTap()
        let broadcaster = Broadcaster()
        #expect(broadcaster.setTap(first))
        #expect(!broadcaster.setTap(second))
        let made = Broadcaster(tap: second)
        #expect(!made.setTap(first))

        broadcaster.post(Tapped(n: 1))
        made.post(Tapped(n: 1))
        #expect(first.all.count == 1 && second.all.count == 1)
    }

    @Test("A tap set while another thread broadcasts sees the broadcasts that loaded it, each once")
    func setWhileBroadcasting() {
        for _ in 0..<50 {
            let broadcaster = Broadcaster()
            let spy = CountingPing()
            broadcaster.addListener(spy)
            let tap = RecordingTap()
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            let returned = Locked<[Int]>([])
            done.enter()
            Thread {
                start.wait()
                for _ in 0..<20 {
                    let made = broadcaster.broadcast(to: Ping.self) { $0.ping(0) }
                    returned.withLock { $0.append(made) }
                }
                done.leave()
            }.start()
            done.enter()
            Thread {
                start.wait()
                broadcaster.setTap(tap)
                done.leave()
            }.start()
            start.signal()
            start.signal()
            #expect(done.wait(timeout: .now() + 10) == .success)
            broadcaster.broadcast(to: Ping.self) { $0.ping(0) }
            let seen = tap.all
            #expect((1...21).contains(seen.count))
            #expect(seen.allSatisfy { $0.calledCount == 1 && $0.scheduledCount == 0 })
            #expect(returned.withLock { $0 } == Array(repeating: 1, count: 20))
            #expect(spy.calls.count == 21)
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread and returns its result, waiting up to 10 s.
    fileprivate static func runAndWait<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let result = Locked<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.withLock { $0 = body() }
            done.signal()
        }.start()
        precondition(done.wait(timeout: .now() + 10) == .success, "the thread did not return within 10 s")
        return result.withLock { $0 }!
    }
}

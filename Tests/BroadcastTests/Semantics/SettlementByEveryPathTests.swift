import Broadcast
import Foundation
import Testing

/// A call the main actor settles means one thing on every path.
///
/// A listener registered with no actor, whose cast fails off the main actor
/// before the main actor has taken it in, is called there if it conforms
/// there, and is then settled (counted from the next broadcast made
/// elsewhere). A replay waits within the unsettled-call limit,
/// as a broadcast's calls do; an awaited broadcast's caller awaits its call,
/// so it takes no room.
@Suite("A call the main actor settles, on every path")
struct SettlementByEveryPathTests {
    @Test(.timeLimit(.minutes(1)))
    func aReplayMadeOffTheMainActorSettlesTheListener() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        _ = await onNewThread { broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(1) } }
        let screen = MainConformer(id: 40, record: record)
        // Registered, and replayed the state, from a plain thread: no actor.
        #expect(await onNewThread { broadcaster.addListener(screen, receivingSticky: true) })
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 40).map(\.onMainQueue) == [true])
        // Settled by the replay's call: a broadcast made elsewhere counts it.
        #expect(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } } == 1)
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 40).map(\.onMainQueue) == [true, true])
        withExtendedLifetime(screen) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func aReplayWaitsWithinTheUnsettledCallLimit() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = MainConformer(id: 41, record: record)
        let late = MainConformer(id: 42, record: record)
        await onNewThreadWhileTheMainActorIsHeld {
            // Registered from a plain thread before the main actor has run: not taken in.
            broadcaster.addListener(screen)
            // The first 1,000 broadcasts' calls wait for the main actor's cast;
            // the sticky one after them keeps its state, not its call.
            for n in 1...1_000 { _ = broadcaster.broadcast(to: Ping.self) { $0.ping(n) } }
            _ = broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(0) }
            // No room for the replay's call either.
            broadcaster.addListener(late, receivingSticky: true)
        }
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 41).count == 1_000)
        #expect(record.calls(of: 42).isEmpty, "the replay beyond the limit was not kept")
        // Room given back: a replay made elsewhere now reaches a listener, and settles it.
        let later = MainConformer(id: 43, record: record)
        #expect(await onNewThread { broadcaster.addListener(later, receivingSticky: true) })
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 43).map(\.onMainQueue) == [true])
        withExtendedLifetime((screen, late, later)) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func anAwaitedBroadcastMadeOffTheMainActorSettlesTheListener() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = MainConformer(id: 44, record: record)
        broadcaster.addListener(screen)  // non-isolated code: no actor
        // Not counted where it was routed, and made on the main actor, whose cast settles it.
        #expect(await awaitedBroadcastFromNonisolatedCode(broadcaster) == 1)
        #expect(record.calls(of: 44).map(\.onMainQueue) == [true])
        #expect(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(3) } } == 1)
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 44).count == 2)
        withExtendedLifetime(screen) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func anAwaitedBroadcastTakesNoRoomInTheUnsettledCallLimit() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let mainActorHeld = DispatchSemaphore(value: 0)
        let releaseMainActor = DispatchSemaphore(value: 0)
        // Called by the awaited broadcast just before it routes the screen,
        // while the limit is still full: only then is the main actor released.
        let releaser = MainActorReleaser(releasingOn: 2, releaseMainActor)
        broadcaster.addListener(releaser)
        let screen = MainConformer(id: 45, record: record)
        let holder = Task.detached {
            await MainActor.run {
                mainActorHeld.signal()
                releaseMainActor.wait()
            }
        }
        await onNewThread {
            mainActorHeld.wait()
            // Registered from a plain thread before the main actor has run: not taken in.
            broadcaster.addListener(screen)
            for n in 1...1_000 { _ = broadcaster.broadcast(to: Ping.self) { $0.ping(-n) } }
        }
        // The limit is full; the awaited broadcast's call still goes to the main actor.
        #expect(await awaitedBroadcastFromNonisolatedCode(broadcaster) == 2)
        await holder.value
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 45).count == 1_001)
        withExtendedLifetime((releaser, screen)) {}
    }
}

extension SettlementByEveryPathTests {
    /// The payload form, asked while the limit is full: the awaited call is
    /// made on the main actor before the broadcast returns, and nothing
    /// reports a refusal (a broadcast that found no room would).
    @Test(.timeLimit(.minutes(1)))
    func anAwaitedBroadcastWithAPayloadIsNeitherRefusedNorReportedWhileTheLimitIsFull() async {
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        let record = CallRecord()
        let releaseMainActor = DispatchSemaphore(value: 0)
        let releaser = MainActorReleaser(releasingOn: 7, releaseMainActor)
        broadcaster.addListener(releaser)
        let screen = MainConformer(id: 46, record: record)
        let mainActorHeld = DispatchSemaphore(value: 0)
        let holder = Task.detached {
            await MainActor.run {
                mainActorHeld.signal()
                releaseMainActor.wait()
            }
        }
        await onNewThread {
            mainActorHeld.wait()
            broadcaster.addListener(screen)  // a plain thread: no actor
            // Exactly the limit: these broadcasts are kept, and fill it.
            for n in 1...1_000 { _ = broadcaster.broadcast(to: Ping.self) { $0.ping(-n) } }
        }
        let made = await awaitedBroadcastFromNonisolatedCode(broadcaster, with: 7)
        await holder.value
        #expect(await drained(broadcaster))
        #expect(made == 2)
        #expect(record.calls(of: 46).count == 1_001)
        #expect(!diagnostics.all.contains { $0.kind == .unsettledCallLimitReached })
        withExtendedLifetime((releaser, screen)) {}
    }
}

/// An awaited broadcast with a payload, from code isolated to no actor.
nonisolated func awaitedBroadcastFromNonisolatedCode(_ broadcaster: Broadcaster, with value: Int) async -> Int {
    await broadcaster.broadcast(awaitingEach: Ping.self, with: value) { $0.ping($1) }
}

/// A listener with no actor that releases a semaphore when called with one value.
final class MainActorReleaser: Ping, Sendable {
    private let value: Int
    private let release: DispatchSemaphore

    init(releasingOn value: Int, _ release: DispatchSemaphore) {
        self.value = value
        self.release = release
    }

    func ping(_ n: Int) {
        if n == value { release.signal() }
    }
}

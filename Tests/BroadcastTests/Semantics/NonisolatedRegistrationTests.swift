import Broadcast
import Foundation
import Synchronization
import Testing

/// A listener with a conformance isolated to the main actor, registered from no actor.
///
/// Registered from a `nonisolated async` setup function or a dependency
/// container, it has no actor, and a cast off the main actor cannot tell it
/// from a listener that does not conform, so the call goes to the main
/// actor, whose cast makes it. The main actor takes the listener in as soon
/// as it runs after the registration, casting it for every protocol
/// broadcast to before: from then on, a broadcast made elsewhere to one of
/// those counts the call if it conforms; one racing the registration, or
/// the first made elsewhere to another protocol, does not, and the main
/// actor's cast settles it.
@Suite("Isolated conformance registered from non-isolated code")
struct NonisolatedRegistrationTests {
    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func aScreenRegisteredFromNonisolatedCodeIsCountedFromTheFirstBroadcastAfterItsRegistrationReturns() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        #expect(broadcaster.broadcast(to: Ping.self) { $0.ping(0) } == 0)
        let screen = IsolatedPinger(id: 1, record: record)
        await registerFromNonisolatedCode(screen, with: broadcaster)

        // Back on the main actor, which took the screen in first and found
        // it a `Ping` only there: the first background broadcast schedules
        // its call there, counted.
        let first = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        #expect(first == 1)
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 1).map(\.onMainQueue) == [true])
        let second = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } }
        #expect(await drained(broadcaster))
        #expect(second == 1)
        #expect(record.calls(of: 1).map(\.onMainQueue) == [true, true])
        #expect(record.calls(of: 1).map(\.duringBroadcastOnThisThread) == [false, false])

        // On the main actor, where its conformance holds: called at once.
        let madeHere = broadcaster.broadcast(to: Ping.self) { $0.ping(3) }
        #expect(madeHere == 1)
        #expect(record.calls(of: 1).count == 3)
        #expect(broadcaster.listenerCount(of: Ping.self) == 1)
        #expect(broadcaster.listeners(of: Ping.self).count == 1)
        #expect(broadcaster.deliveryExplanation(for: screen, to: Ping.self) == .calledHere)
        #expect(broadcaster.isRegistered(screen))
    }

    /// The queries made off the main actor agree with the broadcast: counted, scheduled there.
    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func offTheMainActorTheQueriesCountItFromItsRegistration() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = IsolatedPinger(id: 4, record: record)
        _ = broadcaster.listenerCount(of: Ping.self)  // the index exists
        await registerFromNonisolatedCode(screen, with: broadcaster)
        #expect(await onNewThread { broadcaster.listenerCount(of: Ping.self) } == 1)
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: screen, to: Ping.self) }
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(
            explanation.description.hasSuffix(
                "it registered with no actor, and the main actor found a conformance that can be used only there"))
        #expect(await onNewThread { broadcaster.listeners(of: Ping.self).count } == 0)
        #expect(record.calls(of: 4).isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func aMainActorBroadcastCallsItBeforeAnyBackgroundOne() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = IsolatedPinger(id: 3, record: record)
        await registerFromNonisolatedCode(screen, with: broadcaster)
        // The index takes it in on a background thread first: `Ping` was not
        // broadcast to before, so the main actor has not cast it for `Ping`.
        #expect(await onNewThread { broadcaster.listenerCount(of: Ping.self) } == 0)
        #expect(broadcaster.listenerCount(of: Ping.self) == 1)
        #expect(broadcaster.broadcast(to: Ping.self) { $0.ping(1) } == 1)
        #expect(record.calls(of: 3).map(\.duringBroadcastOnThisThread) == [false])
        #expect(record.calls(of: 3).map(\.onMainQueue) == [true])
    }

    /// Registered and broadcast to from a plain thread while the main actor
    /// is held: the broadcast races the registration, so it does not count
    /// the call it sends to the main actor; the main actor's cast makes it
    /// and settles the screen, and later broadcasts count it.
    @Test(.timeLimit(.minutes(1)))
    func aBroadcastRacingItsRegistrationSendsTheCallUncounted() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = MainConformer(id: 2, record: record)
        let (first, explanation) = await onNewThreadWhileTheMainActorIsHeld {
            broadcaster.addListener(screen)  // a plain thread: no actor
            let explanation = broadcaster.deliveryExplanation(for: screen, to: Ping.self)
            return (broadcaster.broadcast(to: Ping.self) { $0.ping(1) }, explanation)
        }
        #expect(first == 0, "racing its registration: the main actor has not taken it in")
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(explanation.description.hasSuffix("not counted until the main actor has cast it"))
        #expect(await drained(broadcaster))
        var made = [first]
        for n in 2...3 {
            made.append(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(n) } })
            #expect(await drained(broadcaster))
        }
        #expect(made == [0, 1, 1])
        #expect(record.calls(of: 2).map(\.onMainQueue) == [true, true, true])
        let settled = await onNewThread { broadcaster.deliveryExplanation(for: screen, to: Ping.self) }
        #expect(settled == .scheduledIfConforming(on: MainActor.shared))
        #expect(await onNewThread { broadcaster.listenerCount(of: Ping.self) } == 1)
        #expect(await onNewThread { broadcaster.listeners(of: Ping.self).count } == 0)
        withExtendedLifetime(screen) {}
    }

    /// A listener with no actor that does not conform is not counted by a
    /// broadcast made after its registration returns, to a protocol the
    /// broadcaster had broadcast to: the main actor's take-in cast it, and
    /// the index drops it, so no call waits with the payload.
    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func aListenerThatDoesNotConformIsNotCountedAfterItsRegistrationReturns() async {
        let broadcaster = Broadcaster()
        #expect(broadcaster.broadcast(to: Carrier.self, with: Payload()) { $0.carry($1) } == 0)
        let bystanders = (0..<10).map { _ in Stranger() }
        for bystander in bystanders { await registerFromNonisolatedCode(bystander, with: broadcaster) }
        let (made, released) = await onNewThread {
            var payload: Payload? = Payload()
            weak let released = payload
            let made = broadcaster.broadcast(to: Carrier.self, with: payload!) { $0.carry($1) }
            payload = nil
            return (made, released == nil)
        }
        #expect(made == 0)
        #expect(released, "no call waits with the payload")
        #expect(await onNewThread { broadcaster.listenerCount(of: Carrier.self) } == 0)
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: bystanders[0], to: Carrier.self) }
        #expect(explanation == .doesNotConform)
        withExtendedLifetime(bystanders) {}
    }

    /// Racing its registration, a listener that does not conform is not
    /// counted either; its call waits for the main actor's cast with the
    /// payload, which is released once the main actor has cast it.
    @Test(.timeLimit(.minutes(1)))
    func aBystanderRacingItsRegistrationIsNotCountedAndKeepsThePayloadOnlyUntilTheMainActorCastsIt() async {
        let broadcaster = Broadcaster()
        let bystanders = (0..<10).map { _ in Stranger() }
        let firstReleased = await onNewThreadWhileTheMainActorIsHeld {
            for bystander in bystanders { broadcaster.addListener(bystander) }
            var payload: Payload? = Payload()
            weak let released = payload
            let first = broadcaster.broadcast(to: Carrier.self, with: payload!) { $0.carry($1) }
            payload = nil
            return WeakPayload(made: first, payload: released)
        }
        #expect(firstReleased.made == 0)
        #expect(await drained(broadcaster))
        #expect(firstReleased.payload == nil, "released once the main actor has cast the bystanders")
        // Settled: a later broadcast schedules nothing, and nothing keeps its payload.
        let (made, released) = await onNewThread {
            var payload: Payload? = Payload()
            weak let released = payload
            let made = broadcaster.broadcast(to: Carrier.self, with: payload!) { $0.carry($1) }
            payload = nil
            return (made, released == nil)
        }
        #expect(made == 0)
        #expect(released, "no call waits with the payload")
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: bystanders[0], to: Carrier.self) }
        #expect(explanation == .doesNotConform)
        withExtendedLifetime(bystanders) {}
    }

    /// To a protocol not broadcast to before it registered, the main actor
    /// has not cast the screen: the first broadcast made elsewhere sends the
    /// call there uncounted, and the main actor's cast settles the screen;
    /// the next is counted.
    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func theFirstBroadcastMadeElsewhereToAProtocolNotBroadcastBeforeDoesNotCountTheScreen() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = IsolatedPinger(id: 5, record: record)
        await registerFromNonisolatedCode(screen, with: broadcaster)
        let first = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        #expect(await drained(broadcaster))
        #expect(first == 0)
        #expect(record.calls(of: 5).map(\.onMainQueue) == [true])
        let second = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } }
        #expect(await drained(broadcaster))
        #expect(second == 1)
        #expect(record.calls(of: 5).map(\.onMainQueue) == [true, true])
        withExtendedLifetime(screen) {}
    }

    /// Found a `Ping` only on the main actor, the screen counts, for a
    /// broadcast made elsewhere to another protocol, as a listener registered
    /// on the main actor: its call is scheduled there, counted, from that
    /// protocol's first broadcast.
    @Test(.timeLimit(.minutes(1)))
    func onceFoundIsolatedToTheMainActorItIsCountedForAnotherProtocolFromItsFirstBroadcast() async {
        let broadcaster = Broadcaster()
        let screen = DualScreen()
        broadcaster.addListener(screen)  // non-isolated code: no actor
        _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        #expect(await drained(broadcaster))
        #expect(screen.pings == 1)
        let carried = await onNewThread { broadcaster.broadcast(to: Carrier.self, with: Payload()) { $0.carry($1) } }
        #expect(carried == 1)
        #expect(await drained(broadcaster))
        #expect(screen.carries == 1)
        withExtendedLifetime(screen) {}
    }

    /// The queries agree: off the main actor, counted and scheduled there.
    @Test(.timeLimit(.minutes(1)))
    func onceFoundIsolatedToTheMainActorTheQueriesCountItForAnotherProtocol() async {
        let broadcaster = Broadcaster()
        let screen = DualScreen()
        broadcaster.addListener(screen)  // non-isolated code: no actor
        _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
        #expect(await drained(broadcaster))
        #expect(await onNewThread { broadcaster.listenerCount(of: Carrier.self) } == 1)
        let explanation = await onNewThread { broadcaster.deliveryExplanation(for: screen, to: Carrier.self) }
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(
            explanation.description.hasSuffix(
                "it registered with no actor, and the main actor found a conformance that can be used only there"))
        withExtendedLifetime(screen) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func backgroundBroadcastsReachTheScreenInOrderBesideACalledOnListener() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = await IsolatedPinger(id: 1, record: record)
        let bound = await IsolatedPinger(id: 2, record: record)
        await registerFromNonisolatedCode(screen, with: broadcaster)
        broadcaster.addListener(bound, calledOn: MainActor.shared)
        // From the first broadcast, while the main actor settles the screen.
        await onNewThread {
            for n in 1...100 { broadcaster.broadcast(to: Ping.self) { $0.ping(n) } }
        }
        #expect(await drained(broadcaster))
        // Both on the main actor, one broadcast after another.
        let expected: [Int] = Array(Array(repeating: [1, 2], count: 100).joined())
        #expect(record.order == expected)
        #expect(record.calls(of: 1).map(\.onMainQueue) == Array(repeating: true, count: 100))
        withExtendedLifetime((screen, bound)) {}
    }

    @Test(.timeLimit(.minutes(1)))
    @MainActor
    func everyFormReachesTheScreenOnTheMainActorFromTheFirstBroadcast() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let added = IsolatedPinger(id: 10, record: record)
        let registered = IsolatedPinger(id: 11, record: record)
        let replayed = IsolatedPinger(id: 12, record: record)
        let registration = ListenerRegistration(registered, for: Ping.self, on: broadcaster)
        await startFromNonisolatedCode(registration)
        await registerFromNonisolatedCode(added, with: broadcaster)
        _ = await onNewThread { broadcaster.broadcast(to: Ping.self, sticky: true) { $0.ping(1) } }
        #expect(await drained(broadcaster))
        _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(2) } }
        // A late listener replayed the sticky state from non-isolated code.
        await registerFromNonisolatedCode(replayed, with: broadcaster, receivingSticky: true)
        #expect(await drained(broadcaster))
        // The sticky broadcast and the plain one, each on the main actor.
        #expect(record.calls(of: 10).map(\.onMainQueue) == [true, true])
        #expect(record.calls(of: 11).map(\.onMainQueue) == [true, true])
        #expect(record.calls(of: 12).map(\.onMainQueue) == [true])
        // An awaited broadcast from non-isolated code hops to the main actor.
        let awaited = await awaitedBroadcastFromNonisolatedCode(broadcaster)
        #expect(awaited == 3)
        #expect(record.calls(of: 12).map(\.onMainQueue) == [true, true])
        withExtendedLifetime((added, registered, replayed, registration)) {}
    }

    /// Threads released together broadcast in a loop while the main actor
    /// settles the screens, then again once it has: every call counted is
    /// made, on the main actor, with at most one per screen and broadcast
    /// (calls waiting for the main actor's cast are not counted, and beyond
    /// ``unsettledCallsBeyondTheLimitAreNotKept()``'s limit not kept); once
    /// settled, every broadcast reaches every screen, counted.
    @Test(.timeLimit(.minutes(1)))
    func threadsBroadcastingWhileTheMainActorSettlesCountExactlyTheCallsMade() async {
        let broadcaster = Broadcaster()
        // The bystanders' take-in settles them for `Ping`: never counted.
        _ = broadcaster.broadcast(to: Ping.self) { $0.ping(0) }
        let record = CallRecord()
        let screens = await MainActor.run { (0..<4).map { IsolatedPinger(id: $0, record: record) } }
        for screen in screens { await registerFromNonisolatedCode(screen, with: broadcaster) }
        let bystanders = (0..<4).map { _ in Stranger() }
        for bystander in bystanders { broadcaster.addListener(bystander) }

        let whileSettling = await race(broadcaster, threads: 3, broadcastsEach: 2_000)
        #expect(await drained(broadcaster))
        let callsWhileSettling = record.order.count
        #expect(callsWhileSettling >= whileSettling.counted, "every call counted was made")
        #expect(callsWhileSettling <= 4 * whileSettling.broadcasts, "no call was made twice")

        let settled = await race(broadcaster, threads: 3, broadcastsEach: 500)
        #expect(await drained(broadcaster))
        #expect(settled.counted == 4 * settled.broadcasts, "settled: every broadcast reaches every screen")
        #expect(record.order.count - callsWhileSettling == settled.counted)
        let onMainQueue = (0..<4).flatMap { record.calls(of: $0) }.map(\.onMainQueue)
        #expect(onMainQueue == Array(repeating: true, count: onMainQueue.count))
        withExtendedLifetime((screens, bystanders)) {}
    }

    /// The calls of at most 1,000 broadcasts wait for the main actor's cast.
    ///
    /// While the main actor does not run, each holds its payload; later ones
    /// are not kept, and debug builds say so, once. Once it has run, the
    /// screen is settled and every broadcast reaches it.
    @Test(.timeLimit(.minutes(1)))
    func unsettledCallsBeyondTheLimitAreNotKept() async {
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        let record = CallRecord()
        let screen = MainConformer(id: 30, record: record)
        let counted = await onNewThreadWhileTheMainActorIsHeld {
            broadcaster.addListener(screen)  // a plain thread: no actor
            return (1...1_005).reduce(0) { made, n in made + broadcaster.broadcast(to: Ping.self) { $0.ping(n) } }
        }
        #expect(await drained(broadcaster))
        #expect(counted == 0)
        #expect(record.calls(of: 30).count == 1_000, "the calls of the first 1,000 broadcasts, no more")
        #if DEBUG
            let refusals = diagnostics.all.filter { $0.kind == .unsettledCallLimitReached }
            #expect(refusals.count == 1)
            #expect(refusals.first?.typeName == "MainConformer")
            #expect(
                refusals.first?.description.hasPrefix(
                    "Broadcast: a broadcast to Ping made off the main actor did not keep its calls to listeners "
                        + "registered with no actor, such as MainConformer registered at "
                        + "BroadcastTests/NonisolatedRegistrationTests.swift:") == true)
        #endif
        // Settled by the main actor's cast: counted and made.
        #expect(await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(0) } } == 1)
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 30).count == 1_001)
        // The calls that ran gave their room back: a screen registered now, and
        // not cast by the main actor yet, is reached from its first broadcast
        // (the settled screen counted, the new one not).
        let late = MainConformer(id: 31, record: record)
        let made = await onNewThreadWhileTheMainActorIsHeld {
            broadcaster.addListener(late)  // a plain thread: no actor
            return broadcaster.broadcast(to: Ping.self) { $0.ping(1) }
        }
        #expect(made == 1)
        #expect(await drained(broadcaster))
        #expect(record.calls(of: 31).map(\.onMainQueue) == [true])
        withExtendedLifetime((screen, late)) {}
    }

    #if DEBUG
        @Test(.timeLimit(.minutes(1)))
        func theDebugReportOfASettlementIsMadeBeforeTheWaitReturns() async {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let screen = MainConformer(id: 20, record: CallRecord())
            broadcaster.addListener(screen)  // non-isolated code: no actor
            _ = await onNewThread { broadcaster.broadcast(to: Ping.self) { $0.ping(1) } }
            #expect(await drained(broadcaster))
            #expect(diagnostics.all.map(\.kind) == [.isolatedConformanceRegisteredOffMainActor])
            withExtendedLifetime(screen) {}
        }
    #endif
}

/// A payload whose release a test observes.
final class Payload: Sendable {}

/// A screen whose conformances to `Ping` and `Carrier` are isolated to the main actor.
final class DualScreen: Sendable {
    private let pinged = Mutex(0)
    private let carried = Mutex(0)
    var pings: Int { pinged.withLock { $0 } }
    var carries: Int { carried.withLock { $0 } }
    fileprivate func notePing() { pinged.withLock { $0 += 1 } }
    fileprivate func noteCarry() { carried.withLock { $0 += 1 } }
}

extension DualScreen: @MainActor Ping {
    func ping(_ n: Int) { notePing() }
}

extension DualScreen: @MainActor Carrier {
    func carry(_ payload: Payload) { noteCarry() }
}

/// A broadcast's count, and its payload held weakly.
struct WeakPayload: Sendable {
    let made: Int
    weak var payload: Payload?
}

/// Runs `body` on a new thread while the main actor is held: nothing
/// enqueued on the main actor meanwhile (the take-in of a listener
/// registered with no actor, a scheduled call) runs before `body` returns.
func onNewThreadWhileTheMainActorIsHeld<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    let mainActorHeld = DispatchSemaphore(value: 0)
    let releaseMainActor = DispatchSemaphore(value: 0)
    let holder = Task.detached {
        await MainActor.run {
            mainActorHeld.signal()
            releaseMainActor.wait()
        }
    }
    let result = await onNewThread {
        mainActorHeld.wait()
        defer { releaseMainActor.signal() }
        return body()
    }
    await holder.value
    return result
}

protocol Carrier: AnyObject { func carry(_ payload: Payload) }

/// Registers from code isolated to no actor, as a setup function or a
/// dependency container does.
nonisolated func registerFromNonisolatedCode(
    _ listener: some AnyObject & Sendable, with broadcaster: Broadcaster, receivingSticky: Bool = false
) async {
    broadcaster.addListener(listener, receivingSticky: receivingSticky)
}

nonisolated func startFromNonisolatedCode(_ registration: ListenerRegistration) async {
    registration.start()
}

nonisolated func awaitedBroadcastFromNonisolatedCode(_ broadcaster: Broadcaster) async -> Int {
    await broadcaster.broadcast(awaitingEach: Ping.self) { $0.ping(2) }
}

/// Broadcasts to `Ping` from `threads` threads released together, each in a
/// loop of `broadcastsEach`; returns the broadcasts made and the calls they
/// counted.
func race(_ broadcaster: Broadcaster, threads: Int, broadcastsEach: Int) async -> (broadcasts: Int, counted: Int) {
    let start = DispatchSemaphore(value: 0)
    return await withTaskGroup(of: Int.self) { group in
        for _ in 0..<threads {
            group.addTask {
                await onNewThread {
                    start.wait()
                    var counted = 0
                    for n in 0..<broadcastsEach { counted += broadcaster.broadcast(to: Ping.self) { $0.ping(n) } }
                    return counted
                }
            }
        }
        for _ in 0..<threads { start.signal() }
        return (threads * broadcastsEach, await group.reduce(0, +))
    }
}

/// Whether every call `broadcaster` scheduled has run within `seconds`: the
/// test's own deadline, ahead of its `.timeLimit`.
func drained(_ broadcaster: Broadcaster, within seconds: Int = 30) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await broadcaster.waitForScheduledDeliveries()
            return !Task.isCancelled
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

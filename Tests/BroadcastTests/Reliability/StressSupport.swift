import Broadcast
import Dispatch
import Foundation
import Synchronization

// Vocabulary for the concurrency stress (StressTests.swift).

protocol StressP1: AnyObject { func hear1(_ probe: StressProbe) }
protocol StressP2: AnyObject { func hear2(_ probe: StressProbe) }
protocol StressP3: StressP1 { func hear3(_ probe: StressProbe) }

enum StressTarget: Int, Sendable, CaseIterable {
    case p1, p2, p3
}

/// One broadcast: its id, its nesting depth, and how many times the
/// broadcaster invoked its delivery closure (every call made, wherever it ran).
final class StressProbe: Sendable {
    let id: Int
    let depth: Int
    let calls = Atomic<Int>(0)

    init(id: Int, depth: Int) {
        self.id = id
        self.depth = depth
    }
}

/// What the test knows about one broadcast once it returned.
struct StressBroadcastRecord: Sendable {
    let probe: StressProbe
    let target: StressTarget
    /// Clock stamps taken just before the call and just after it returned.
    let start: Int
    let end: Int
    let returned: Int
}

/// One registration of a listener, as clock stamps taken by its owner thread
/// around `addListener` and `removeListener`.
struct StressInterval: Sendable {
    let addStart: Int
    let addEnd: Int
    var removeStart: Int?
    var removeEnd: Int?
}

/// A listener's observable history.
///
/// Holds no reference to the listener, so it
/// outlives it for the final verification.
final class StressListenerCore: Sendable {
    struct State {
        var received: [Int] = []
        var intervals: [StressInterval] = []
        /// Stamp taken before the owner dropped its last strong reference.
        var releaseStart: Int?
        var callsOffMainActor = 0
    }

    let id: Int
    let targets: Set<StressTarget>
    let isMainActorListener: Bool
    let state = Locked(State())

    init(id: Int, targets: Set<StressTarget>, isMainActorListener: Bool = false) {
        self.id = id
        self.targets = targets
        self.isMainActorListener = isMainActorListener
    }

    func record(_ probe: StressProbe) {
        state.withLock { $0.received.append(probe.id) }
    }
}

final class StressPlain: Sendable {
    let core: StressListenerCore
    init(core: StressListenerCore) { self.core = core }
}
final class StressOne: StressP1, Sendable {
    let core: StressListenerCore
    init(core: StressListenerCore) { self.core = core }
    func hear1(_ probe: StressProbe) { core.record(probe) }
}
final class StressTwo: StressP2, Sendable {
    let core: StressListenerCore
    init(core: StressListenerCore) { self.core = core }
    func hear2(_ probe: StressProbe) { core.record(probe) }
}
final class StressThree: StressP3, Sendable {
    let core: StressListenerCore
    init(core: StressListenerCore) { self.core = core }
    func hear1(_ probe: StressProbe) { core.record(probe) }
    func hear3(_ probe: StressProbe) { core.record(probe) }
}
/// Listens to P1 and P2, and makes a nested broadcast from some P1 calls.
final class StressNester: StressP1, StressP2, Sendable {
    let core: StressListenerCore
    let world: StressWorld
    init(core: StressListenerCore, world: StressWorld) {
        self.core = core
        self.world = world
    }
    func hear1(_ probe: StressProbe) {
        core.record(probe)
        if probe.depth == 0, (probe.id &+ core.id) % 8 == 0 {
            world.broadcast(probe.id % 2 == 0 ? .p2 : .p3, depth: 1)
        }
    }
    func hear2(_ probe: StressProbe) { core.record(probe) }
}

/// A UI-like listener: main-actor isolated, conforming only on the main actor.
@MainActor final class StressScreen {
    nonisolated let core: StressListenerCore
    init(core: StressListenerCore) { self.core = core }

    fileprivate func heard(_ probe: StressProbe) {
        if !StressMainQueue.isCurrent { core.state.withLock { $0.callsOffMainActor += 1 } }
        core.record(probe)
    }
}
extension StressScreen: @MainActor StressP3, @MainActor StressP2 {
    func hear1(_ probe: StressProbe) { heard(probe) }
    func hear2(_ probe: StressProbe) { heard(probe) }
    func hear3(_ probe: StressProbe) { heard(probe) }
}

/// Whether code runs on the main queue (where the main actor runs), read
/// from a queue-specific tag: `Thread.isMainThread` is unreliable on Linux.
enum StressMainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }
}

enum StressKind: CaseIterable {
    case plain, one, two, three, nester

    var targets: Set<StressTarget> {
        switch self {
        case .plain: []
        case .one: [.p1]
        case .two: [.p2]
        case .three: [.p1, .p3]
        case .nester: [.p1, .p2]
        }
    }
}

/// Everything shared by the stress threads: the broadcaster, a global logical
/// clock, and the records the final verification reads.
final class StressWorld: Sendable {
    let broadcaster = Broadcaster()
    private let clock = Atomic<Int>(0)
    private let nextBroadcast = Atomic<Int>(0)
    private let nextListener = Atomic<Int>(0)
    let records = Locked<[StressBroadcastRecord]>([])
    let cores = Locked<[StressListenerCore]>([])
    /// Main-actor listeners stay registered and alive for the whole run, so
    /// every delivery scheduled for them must happen.
    let screens = Locked<[StressScreen]>([])
    /// Awaited broadcasts whose closure-call count differed from the count
    /// they returned, at the moment they returned.
    let barrierViolations = Locked<[String]>([])

    /// A stamp of the global clock: sequentially consistent, so stamps order
    /// the events they bracket across threads.
    func tick() -> Int { clock.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }

    func makeCore(_ targets: Set<StressTarget>, mainActor: Bool = false) -> StressListenerCore {
        let core = StressListenerCore(
            id: nextListener.wrappingAdd(1, ordering: .relaxed).newValue, targets: targets,
            isMainActorListener: mainActor)
        cores.withLock { $0.append(core) }
        return core
    }

    func makeListener(_ kind: StressKind) -> (AnyObject, StressListenerCore) {
        let core = makeCore(kind.targets)
        switch kind {
        case .plain: return (StressPlain(core: core), core)
        case .one: return (StressOne(core: core), core)
        case .two: return (StressTwo(core: core), core)
        case .three: return (StressThree(core: core), core)
        case .nester: return (StressNester(core: core, world: self), core)
        }
    }

    private func newProbe(depth: Int) -> StressProbe {
        StressProbe(id: nextBroadcast.wrappingAdd(1, ordering: .relaxed).newValue, depth: depth)
    }

    /// A synchronous broadcast, stamped and recorded.
    func broadcast(_ target: StressTarget, depth: Int, isolation: isolated (any Actor)? = #isolation) {
        let probe = newProbe(depth: depth)
        let start = tick()
        let returned: Int
        switch target {
        case .p1:
            returned = broadcaster.broadcast(to: StressP1.self, isolation: isolation) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear1(probe)
            }
        case .p2:
            returned = broadcaster.broadcast(to: StressP2.self, isolation: isolation) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear2(probe)
            }
        case .p3:
            returned = broadcaster.broadcast(to: StressP3.self, isolation: isolation) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear3(probe)
            }
        }
        let end = tick()
        records.withLock {
            $0.append(StressBroadcastRecord(probe: probe, target: target, start: start, end: end, returned: returned))
        }
    }

    /// A broadcast, then the barrier; checks at once that every call it
    /// counted ran.
    func broadcastThenWait(_ target: StressTarget) async {
        let probe = newProbe(depth: 0)
        let start = tick()
        let returned: Int
        switch target {
        case .p1:
            returned = await broadcaster.countedBroadcast(to: StressP1.self) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear1(probe)
            }
        case .p2:
            returned = await broadcaster.countedBroadcast(to: StressP2.self) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear2(probe)
            }
        case .p3:
            returned = await broadcaster.countedBroadcast(to: StressP3.self) {
                probe.calls.add(1, ordering: .relaxed)
                $0.hear3(probe)
            }
        }
        let end = tick()
        let calls = probe.calls.load(ordering: .sequentiallyConsistent)
        if calls != returned {
            barrierViolations.withLock {
                $0.append("countedBroadcast #\(probe.id) returned \(returned) but \(calls) calls had run")
            }
        }
        records.withLock {
            $0.append(StressBroadcastRecord(probe: probe, target: target, start: start, end: end, returned: returned))
        }
    }

    /// Registers a new main-actor listener from main-actor code.
    @MainActor func addScreen() {
        let core = makeCore([.p1, .p2, .p3], mainActor: true)
        let screen = StressScreen(core: core)
        let addStart = tick()
        broadcaster.addListener(screen)
        let addEnd = tick()
        core.state.withLock { $0.intervals.append(StressInterval(addStart: addStart, addEnd: addEnd)) }
        screens.withLock { $0.append(screen) }
    }
}

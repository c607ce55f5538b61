import Broadcast
import Dispatch
import Foundation
import Synchronization
import Testing

/// Concurrency stress with invariants.
///
/// 8 threads of mixed operations on one
/// broadcaster, every event stamped with a global sequentially consistent
/// clock, then checked:
///
/// 1. **Removal is final**: no broadcast that started after
///    `removeListener(x)` returned delivers to `x` (unless `x` was added again
///    before that broadcast ended).
/// 2. **Exactly once**: every listener registered before a broadcast started,
///    and neither removed nor released until it ended, received it exactly
///    once (main-actor listeners: once the scheduled deliveries drained); no
///    listener ever receives a broadcast twice.
/// 3. **Counts**: what `broadcast` returned equals the calls its closure made;
///    after `waitForScheduledDeliveries()` returns, all of them have run.
/// 4. **Actors**: main-actor listeners are only ever called on the main actor.
///
/// Size: 8 × 5,000 operations; `BROADCAST_STRESS_OPERATIONS=<per thread>`
/// raises it, `BROADCAST_STRESS_SECONDS=<s>` repeats rounds until that much
/// time has passed (`scripts/soak`), `BROADCAST_STRESS_SEED` picks the seed.
@Suite("Reliability: concurrency stress", .timeLimit(.minutes(ReliabilityTimeLimits.stressMinutes)))
struct ReliabilityStressTests {
    @Test("8 threads of mixed operations keep every delivery invariant")
    func mixedOperations() async {
        let environment = ProcessInfo.processInfo.environment
        let operations = environment["BROADCAST_STRESS_OPERATIONS"].flatMap(Int.init) ?? 5_000
        let seconds = environment["BROADCAST_STRESS_SECONDS"].flatMap(Double.init) ?? 0
        let seed = environment["BROADCAST_STRESS_SEED"].flatMap(UInt64.init) ?? 0x5EED
        let clock = ContinuousClock()
        let began = clock.now
        var total = StressReport()
        var round = 0
        repeat {
            let report = await StressRound.run(
                threads: 8, operationsPerThread: operations, seed: seed &+ UInt64(round) &* 1000)
            print("stress round \(round): \(report)")
            total.merge(report)
            round += 1
            if !report.violations.isEmpty { break }
        } while (clock.now - began) < .seconds(seconds) && !Task.isCancelled
        if round > 1 { print("stress total (\(round) rounds): \(total)") }

        #expect(total.violations.isEmpty, "\(total.violations.prefix(20).joined(separator: "\n"))")
        #expect(total.duplicateDeliveries == 0)
        #expect(total.deliveriesAfterRemoval == 0)
        #expect(total.missedDeliveries == 0)
        #expect(total.countMismatches == 0)
        #expect(total.barrierViolations == 0)
        #expect(total.callsOffMainActor == 0)
        // Not vacuous: the run really delivered, and really checked.
        #expect(total.requiredDeliveries > total.operations / 10)
        #expect(total.mainActorDeliveries > 0)
        #expect(total.nestedBroadcasts > 0)
    }
}

/// Counts and findings of one or more stress rounds.
struct StressReport: CustomStringConvertible {
    var operations = 0
    var seconds = 0.0
    var broadcasts = 0
    var nestedBroadcasts = 0
    var deliveries = 0
    var mainActorDeliveries = 0
    /// (listener, broadcast) pairs the invariants required to be delivered.
    var requiredDeliveries = 0
    var listeners = 0
    var duplicateDeliveries = 0
    var deliveriesAfterRemoval = 0
    var missedDeliveries = 0
    var countMismatches = 0
    var barrierViolations = 0
    var callsOffMainActor = 0
    var violations: [String] = []

    mutating func merge(_ other: StressReport) {
        operations += other.operations
        seconds += other.seconds
        broadcasts += other.broadcasts
        nestedBroadcasts += other.nestedBroadcasts
        deliveries += other.deliveries
        mainActorDeliveries += other.mainActorDeliveries
        requiredDeliveries += other.requiredDeliveries
        listeners += other.listeners
        duplicateDeliveries += other.duplicateDeliveries
        deliveriesAfterRemoval += other.deliveriesAfterRemoval
        missedDeliveries += other.missedDeliveries
        countMismatches += other.countMismatches
        barrierViolations += other.barrierViolations
        callsOffMainActor += other.callsOffMainActor
        violations += other.violations.prefix(max(0, 50 - violations.count))
    }

    var description: String {
        let rate = seconds > 0 ? Int(Double(operations) / seconds) : 0
        return "\(operations) operations in \(String(format: "%.2f", seconds)) s (\(rate) ops/s); "
            + "\(broadcasts) broadcasts (\(nestedBroadcasts) nested), \(deliveries) deliveries "
            + "(\(mainActorDeliveries) on the main actor), \(listeners) listeners, "
            + "\(requiredDeliveries) required deliveries checked; violations: "
            + "duplicate \(duplicateDeliveries), after removal \(deliveriesAfterRemoval), "
            + "missed \(missedDeliveries), count mismatch \(countMismatches), "
            + "barrier \(barrierViolations), off main actor \(callsOffMainActor)"
    }
}

/// Ends a stress round early once its test is cancelled (at its time limit).
///
/// The worker threads block on tasks (an awaited broadcast, a main-actor
/// step): a delivery that never arrives would keep them, and the test,
/// waiting forever. Stopped, the threads start no further operation and the
/// tasks they block on are cancelled, which ends their waits.
final class StressStop: Sendable {
    private struct State {
        var isStopped = false
        var running: [Int: Task<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    var isStopped: Bool { state.withLock { $0.isStopped } }

    /// Stops the round: cancels the tasks threads are blocked on.
    func stop() {
        let running = state.withLock { state in
            state.isStopped = true
            return Array(state.running.values)
        }
        for task in running { task.cancel() }
    }

    /// Runs `operation` in a task and blocks the calling thread until it
    /// returns; the task is cancelled if the round is (or becomes) stopped.
    func blockOn(_ operation: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            await operation()
            done.signal()
        }
        let id = state.withLock { state -> Int? in
            guard !state.isStopped else { return nil }
            defer { state.nextID += 1 }
            state.running[state.nextID] = task
            return state.nextID
        }
        if id == nil { task.cancel() }
        done.wait()
        if let id { state.withLock { $0.running[id] = nil } }
    }
}

enum StressRound {
    static func run(threads: Int, operationsPerThread: Int, seed: UInt64) async -> StressReport {
        let world = StressWorld()
        await MainActor.run {
            world.addScreen()
            world.addScreen()
        }
        let clock = ContinuousClock()
        let began = clock.now
        let group = DispatchGroup()
        let stop = StressStop()
        for index in 0..<threads {
            group.enter()
            let thread = Thread {
                work(world: world, operations: operationsPerThread, seed: seed &+ UInt64(index), stop: stop)
                group.leave()
            }
            thread.start()
        }
        // Cancelled (the test's time limit), the threads stop: a lost
        // delivery then fails the round instead of blocking them forever.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                group.notify(queue: .global()) { continuation.resume() }
            }
        } onCancel: {
            stop.stop()
        }
        await world.broadcaster.waitForScheduledDeliveries()
        let elapsed = clock.now - began
        var report = verify(world)
        report.operations = threads * operationsPerThread
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return report
    }

    /// One thread's operations.
    ///
    /// Each thread owns its listeners, so the stamps
    /// around its own add/remove/release calls order them against every
    /// broadcast's stamps.
    static func work(world: StressWorld, operations: Int, seed: UInt64, stop: StressStop) {
        struct Owned {
            let object: AnyObject
            let core: StressListenerCore
            var registered: Bool
        }
        var rng = SplitMix64(seed: seed)
        var owned: [Owned] = []
        var screensAdded = 0
        let broadcaster = world.broadcaster

        func add(_ index: Int) {
            let start = world.tick()
            broadcaster.addListenerAsInSwift5(owned[index].object)
            let end = world.tick()
            if !owned[index].registered {
                owned[index].registered = true
                owned[index].core.state.withLock { $0.intervals.append(StressInterval(addStart: start, addEnd: end)) }
            }
        }
        func remove(_ index: Int) {
            let start = world.tick()
            broadcaster.removeListener(owned[index].object)
            let end = world.tick()
            if owned[index].registered {
                owned[index].registered = false
                owned[index].core.state.withLock {
                    $0.intervals[$0.intervals.count - 1].removeStart = start
                    $0.intervals[$0.intervals.count - 1].removeEnd = end
                }
            }
        }
        func release(_ index: Int) {
            owned[index].core.state.withLock { $0.releaseStart = world.tick() }
            owned.remove(at: index)  // the last strong reference
        }
        func blockOn(_ operation: @escaping @Sendable () async -> Void) {
            stop.blockOn(operation)
        }

        for _ in 0..<operations where !stop.isStopped {
            let roll = rng.below(100)
            let target = rng.pick(StressTarget.allCases)
            switch roll {
            case ..<14:
                if owned.count >= 12 {
                    release(rng.below(owned.count))
                } else {
                    let (object, core) = world.makeListener(rng.pick(StressKind.allCases))
                    owned.append(Owned(object: object, core: core, registered: false))
                    add(owned.count - 1)
                }
            case ..<19 where !owned.isEmpty:
                add(rng.below(owned.count))  // again (no-op) or re-add after removal
            case ..<29 where !owned.isEmpty:
                remove(rng.below(owned.count))
            case ..<35 where !owned.isEmpty:
                release(rng.below(owned.count))
            case ..<80:
                world.broadcast(target, depth: 0)
            case ..<86:
                blockOn { await world.broadcastThenWait(target) }
            case ..<91:
                blockOn { @MainActor in world.broadcast(target, depth: 0) }
            case ..<93 where screensAdded < 1:
                screensAdded += 1
                blockOn { @MainActor in world.addScreen() }
            case ..<96:
                broadcaster.removeListener(StressPlain(core: world.makeCore([])))  // unknown: no-op
            default:
                _ = broadcaster.listeners(of: StressP1.self).count + broadcaster.listenerCount(of: StressP2.self)
            }
        }
        while !owned.isEmpty { release(owned.count - 1) }
    }

    static func verify(_ world: StressWorld) -> StressReport {
        var report = StressReport()
        func violation(_ text: String) {
            if report.violations.count < 50 { report.violations.append(text) }
        }
        let records = world.records.withLock { $0 }.sorted { $0.start < $1.start }
        let starts = records.map(\.start)
        var byID: [Int: StressBroadcastRecord] = [:]
        for record in records {
            byID[record.probe.id] = record
            let calls = record.probe.calls.load(ordering: .sequentiallyConsistent)
            report.deliveries += calls
            if record.probe.depth > 0 { report.nestedBroadcasts += 1 }
            if calls != record.returned {
                report.countMismatches += 1
                violation("broadcast #\(record.probe.id) returned \(record.returned) but made \(calls) calls")
            }
        }
        report.broadcasts = records.count
        let barrier = world.barrierViolations.withLock { $0 }
        report.barrierViolations = barrier.count
        for text in barrier { violation(text) }

        let cores = world.cores.withLock { $0 }
        report.listeners = cores.count
        for core in cores {
            let state = core.state.withLock { $0 }
            report.callsOffMainActor += state.callsOffMainActor
            if state.callsOffMainActor > 0 {
                violation("main-actor listener \(core.id) called off the main actor \(state.callsOffMainActor) times")
            }
            // Sorted, so duplicates are adjacent and membership is a search.
            let received = state.received.sorted()
            if core.isMainActorListener { report.mainActorDeliveries += received.count }
            for (position, id) in received.enumerated() {
                if position > 0, received[position - 1] == id {
                    report.duplicateDeliveries += 1
                    violation("listener \(core.id) received broadcast #\(id) more than once")
                    continue
                }
                guard let record = byID[id] else {
                    violation("listener \(core.id) received unknown broadcast #\(id)")
                    continue
                }
                let legal = state.intervals.contains { interval in
                    interval.addStart < record.end && (interval.removeEnd.map { $0 > record.start } ?? true)
                }
                if !legal {
                    report.deliveriesAfterRemoval += 1
                    violation(
                        "listener \(core.id) received broadcast #\(id) [\(record.start), \(record.end)] "
                            + "outside its registrations \(state.intervals)")
                }
            }
            for interval in state.intervals {
                let limit = min(interval.removeStart ?? .max, state.releaseStart ?? .max)
                var index = lowerBound(starts, above: interval.addEnd)
                while index < records.count, records[index].start < limit {
                    let record = records[index]
                    index += 1
                    guard record.end < limit, core.targets.contains(record.target) else { continue }
                    report.requiredDeliveries += 1
                    let found = lowerBound(received, above: record.probe.id - 1)
                    if found == received.count || received[found] != record.probe.id {
                        report.missedDeliveries += 1
                        violation(
                            "listener \(core.id) registered [\(interval.addEnd), \(limit)) missed "
                                + "broadcast #\(record.probe.id) to \(record.target) [\(record.start), \(record.end)]")
                    }
                }
            }
        }
        return report
    }

    /// The first index whose value is greater than `value` (`values` sorted).
    private static func lowerBound(_ values: [Int], above value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

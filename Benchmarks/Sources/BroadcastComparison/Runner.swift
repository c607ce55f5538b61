import BenchmarkKit
import CAllocCounter
import Dispatch
import Foundation

// The side-by-side runner. See Docs/Benchmarks.md for what each scenario
// measures and why this is a custom executable next to the package-benchmark
// target.

// MARK: - Options

struct Options {
    var quick = false
    var jsonPath = "Benchmarks/results/latest.json"
    /// The JSON of an earlier run, whose guard rails are printed beside this run's.
    var baselinePath: String?
    /// Only the event API's tables and their allocation check (no JSON, no guard rails).
    var eventsOnly = false
    var nValues: [Int] { quick ? [1, 1000] : [1, 10, 100, 1000, 10000] }
    var unrelatedCounts: [Int] { quick ? [10, 10000] : [10, 1000, 10000] }
    /// Target time of one timed sample.
    var sampleNanoseconds: Double { quick ? 150_000 : 1_000_000 }
    /// Timed samples per implementation and scenario (median reported).
    var rounds: Int { quick ? 5 : 21 }
    var addRemoveRepetitions: Int { quick ? 1 : 5 }
    var concurrentSeconds: Double { quick ? 0.1 : 1.0 }
    var hopBroadcasts: Int { quick ? 200 : 2000 }
    var hopRounds: Int { quick ? 3 : 9 }

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--full": quick = false
            case "--events-only": eventsOnly = true
            case "--json":
                guard let path = iterator.next() else { Self.usage() }
                jsonPath = path
            case "--baseline":
                guard let path = iterator.next() else { Self.usage() }
                baselinePath = path
            case "-h", "--help": Self.usage(exitCode: 0)
            default: Self.usage()
            }
        }
    }

    static func usage(exitCode: Int32 = 2) -> Never {
        print("usage: BroadcastComparison [--quick | --full] [--events-only] [--json PATH] [--baseline EARLIER.json]")
        exit(exitCode)
    }
}

// MARK: - Results

/// One line of the table and of the JSON.
///
/// The keys are stable.
struct Row: Codable {
    var implementation: String
    var scenario: String
    var n: Int
    var nsPerBroadcast: Double?
    var nsPerDelivery: Double?
    var ratioToReference: Double?
    var allocationsPerBroadcast: Double?
    enum CodingKeys: String, CodingKey {
        case implementation
        case scenario
        case n = "N"
        case nsPerBroadcast = "ns_per_broadcast"
        case nsPerDelivery = "ns_per_delivery"
        case ratioToReference = "ratio_to_reference"
        case allocationsPerBroadcast = "allocations_per_broadcast"
    }
}

/// Memory one registration costs (its own JSON section, stable keys).
struct RegistrationMemory: Codable {
    var implementation: String
    var n: Int
    var retainedBytesPerRegistration: Double
    var allocatedBytesPerRegistration: Double
    var allocationsPerRegistration: Double
    enum CodingKeys: String, CodingKey {
        case implementation
        case n = "N"
        case retainedBytesPerRegistration = "retained_bytes_per_registration"
        case allocatedBytesPerRegistration = "allocated_bytes_per_registration"
        case allocationsPerRegistration = "allocations_per_registration"
    }
}

/// What a weak reference's side table costs (its own JSON section, stable keys).
struct SideTableCost: Codable {
    var sideTableBytesPerObject: Double
    var nsPerRetainReleasePlain: Double
    var nsPerRetainReleaseSideTable: Double
    var strongArrayNsPerDeliveryPlain: Double
    var strongArrayNsPerDeliverySideTable: Double
    /// A load through a weak reference and the release of what it loaded,
    /// and a load through a strong one (`WeakLoadCost.swift`).
    var nsPerWeakLoad: Double
    var nsPerStrongLoad: Double
    enum CodingKeys: String, CodingKey {
        case sideTableBytesPerObject = "side_table_bytes_per_object"
        case nsPerRetainReleasePlain = "ns_per_retain_release_plain"
        case nsPerRetainReleaseSideTable = "ns_per_retain_release_side_table"
        case strongArrayNsPerDeliveryPlain = "strong_array_ns_per_delivery_plain"
        case strongArrayNsPerDeliverySideTable = "strong_array_ns_per_delivery_side_table"
        case nsPerWeakLoad = "ns_per_weak_load_and_release"
        case nsPerStrongLoad = "ns_per_strong_load"
    }
}

/// The whole JSON document.
struct Report: Codable {
    var mode: String
    var reference: String
    var machine: [String: String]
    var rows: [Row]
    var registrationMemory: [RegistrationMemory]
    var weakReferenceSideTable: SideTableCost?
    var pendingDeliveryMemory: [PendingDeliveryMemory]
    var guardRails: [GuardRail]
    enum CodingKeys: String, CodingKey {
        case mode
        case reference
        case machine
        case rows
        case registrationMemory = "registration_memory"
        case weakReferenceSideTable = "weak_reference_side_table"
        case pendingDeliveryMemory = "pending_delivery_memory"
        case guardRails = "guard_rails"
    }
}

let referenceName = WeakTyped.name

// MARK: - Measuring

@inline(__always) func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Whether the allocation counter sees the Swift runtime's allocations.
let allocationCounting: Bool = {
    cac_start()
    let array = [Int](repeating: 1, count: Int(CommandLine.arguments.count) + 100)
    let stats = cac_stop()
    blackHole(array)
    return stats.allocations > 0
}()

func countAllocations(_ body: () -> Void) -> cac_stats {
    cac_start()
    body()
    return cac_stop()
}

/// A set of implementations measured side by side on the same scenario: each
/// timed sample measures every implementation once, in an order that changes
/// every round, and the median of the samples is reported.
struct Contestant {
    let name: String
    let run: (Int) -> Void  // broadcasts n times
    let delivered: () -> Int  // deliveries so far (sum over listeners)
}

func measure(_ contestants: [Contestant], expectedDeliveries: Int, options: Options) -> [(
    ns: Double, allocations: Double?
)] {
    // Check every implementation delivers what it should.
    for contestant in contestants {
        let before = contestant.delivered()
        contestant.run(1)
        let made = contestant.delivered() - before
        if made != expectedDeliveries {
            print("warning: \(contestant.name) delivered \(made), expected \(expectedDeliveries)")
        }
    }
    // Calibrate: iterations per sample.
    var iterations: [Int] = []
    for contestant in contestants {
        contestant.run(3)
        var n = 1
        while true {
            let start = now()
            contestant.run(n)
            let elapsed = Double(now() - start)
            if elapsed >= options.sampleNanoseconds / 4 || n >= 1 << 24 {
                iterations.append(max(1, Int(Double(n) * options.sampleNanoseconds / max(elapsed, 1))))
                break
            }
            n *= 4
        }
    }
    var samples = Array(repeating: [Double](), count: contestants.count)
    var generator = SplitMix(seed: 42)
    for _ in 0..<options.rounds {
        for index in Array(contestants.indices).shuffled(using: &generator) {
            let start = now()
            contestants[index].run(iterations[index])
            samples[index].append(Double(now() - start) / Double(iterations[index]))
        }
    }
    return contestants.indices.map { index in
        var allocations: Double?
        if allocationCounting {
            // Less what a call of `run` allocates around its broadcasts (a
            // main-actor shape's `assumeIsolated`), so that the count is
            // per broadcast.
            let times = min(iterations[index], 1000)
            let stats = countAllocations { contestants[index].run(times) }
            let harness = countAllocations { contestants[index].run(0) }
            allocations = Double(stats.allocations - harness.allocations) / Double(times)
        }
        return (median(samples[index]), allocations)
    }
}

/// A small deterministic generator, so the random removal order is the same
/// in every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func rows(
    for contestants: [Contestant], results: [(ns: Double, allocations: Double?)], scenario: String, n: Int,
    deliveries: Int
) -> [Row] {
    let referenceIndex = contestants.firstIndex { $0.name == referenceName }
    let referenceNs = referenceIndex.map { results[$0].ns }
    return contestants.indices.map { index in
        Row(
            implementation: contestants[index].name, scenario: scenario, n: n,
            nsPerBroadcast: results[index].ns,
            nsPerDelivery: deliveries > 0 ? results[index].ns / Double(deliveries) : nil,
            ratioToReference: referenceNs.map { results[index].ns / $0 },
            allocationsPerBroadcast: results[index].allocations)
    }
}

func contestant(_ implementation: any Implementation, listeners: [Listener]) -> Contestant {
    let post = Post(id: 1)
    return Contestant(
        name: type(of: implementation).name,
        run: { implementation.broadcast(post, times: $0) },
        delivered: { listeners.reduce(0) { $0 &+ $1.received } })
}

// MARK: - Scenarios

/// N matching listeners, one broadcast delivers to all of them.
func deliveryScenario(n: Int, options: Options) -> [Row] {
    var keep: [any Implementation] = []
    let contestants = allImplementations.map { type -> Contestant in
        let implementation = type.init()
        let listeners = (0..<n).map { _ in Listener() }
        listeners.forEach(implementation.add)
        keep.append(implementation)
        return contestant(implementation, listeners: listeners)
    }
    let results = measure(contestants, expectedDeliveries: n, options: options)
    withExtendedLifetime(keep) {}
    return rows(for: contestants, results: results, scenario: "deliver", n: n, deliveries: n)
}

/// 10 matching listeners among `unrelated` listeners of another protocol.
func filterScenario(unrelated: Int, options: Options) -> [Row] {
    var keep: [Any] = []
    let contestants = allImplementations.map { type -> Contestant in
        let implementation = type.init()
        let others = (0..<unrelated).map { _ in OtherListener() }
        let listeners = (0..<10).map { _ in Listener() }
        // Interleave: the matching ones are spread through the table.
        let stride = max(1, unrelated / 10)
        for (index, other) in others.enumerated() {
            if index % stride == 0, index / stride < 10 { implementation.add(listeners[index / stride]) }
            implementation.addOther(other)
        }
        if unrelated < 10 { listeners.dropFirst(unrelated).forEach(implementation.add) }
        keep.append(others)
        keep.append(implementation)
        return contestant(implementation, listeners: listeners)
    }
    let results = measure(contestants, expectedDeliveries: 10, options: options)
    withExtendedLifetime(keep) {}
    return rows(for: contestants, results: results, scenario: "10-among-unrelated", n: unrelated, deliveries: 10)
}

/// Add 10,000 listeners, then remove them in random order.
///
/// Reported per
/// operation (in `nsPerBroadcast`).
func addRemoveScenario(options: Options) -> [Row] {
    let n = 10_000
    var addTimes = Array(repeating: [Double](), count: allImplementations.count)
    var removeTimes = addTimes
    var generator = SplitMix(seed: 7)
    let post = Post(id: 1)
    for _ in 0..<options.addRemoveRepetitions {
        for (index, type) in allImplementations.enumerated() {
            let implementation = type.init()
            let listeners = (0..<n).map { _ in Listener() }
            // One broadcast first, so implementations that build an index on
            // the first broadcast keep it up to date during the adds.
            implementation.broadcast(post, times: 1)
            var start = now()
            for listener in listeners { implementation.add(listener) }
            addTimes[index].append(Double(now() - start) / Double(n))
            let order = listeners.shuffled(using: &generator)
            start = now()
            for listener in order { implementation.remove(listener) }
            removeTimes[index].append(Double(now() - start) / Double(n))
        }
    }
    let referenceIndex = allImplementations.firstIndex { $0.name == referenceName }!
    var result: [Row] = []
    for (scenario, times) in [("add", addTimes), ("remove-random", removeTimes)] {
        let medians = times.map(median)
        for (index, type) in allImplementations.enumerated() {
            result.append(
                Row(
                    implementation: type.name, scenario: scenario, n: n, nsPerBroadcast: medians[index],
                    nsPerDelivery: nil, ratioToReference: medians[index] / medians[referenceIndex],
                    allocationsPerBroadcast: nil))
        }
    }
    return result
}

/// Bytes the implementation allocates and keeps per registration, with the
/// listeners' weak-reference side tables formed beforehand (they are reported
/// separately).
func registrationMemory() -> [RegistrationMemory] {
    let n = 1000
    let post = Post(id: 1)
    return allImplementations.map { type in
        let implementation = type.init()
        let listeners = (0..<n).map { _ in Listener() }
        formSideTables(listeners)
        // The first broadcast builds whatever is built lazily; included.
        let stats = countAllocations {
            for listener in listeners { implementation.add(listener) }
            implementation.broadcast(post, times: 1)
        }
        withExtendedLifetime(listeners) {}
        return RegistrationMemory(
            implementation: type.name, n: n,
            retainedBytesPerRegistration: Double(stats.liveBytesDelta) / Double(n),
            allocatedBytesPerRegistration: Double(stats.bytesAllocated) / Double(n),
            allocationsPerRegistration: Double(stats.allocations) / Double(n))
    }
}

final class WeakReference {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Forms a weak reference to each object once: the runtime gives each a side
/// table, which stays for the object's life.
func formSideTables(_ objects: [AnyObject]) {
    let references = objects.map(WeakReference.init)
    blackHole(references)
}

@inline(never)
func copyReferences(from source: [Listener], into destination: inout [Listener], times: Int) {
    for _ in 0..<times {
        for index in source.indices { destination[index] = source[index] }
    }
}

/// The hidden cost of weak references: the side table's size, and what it
/// does to every retain and release of the object.
func sideTableCost(options: Options) -> SideTableCost {
    let n = 10_000
    let fresh = (0..<n).map { _ in Listener() }
    var references: [WeakReference] = []
    references.reserveCapacity(n)
    let stats = countAllocations {
        for object in fresh { references.append(WeakReference(object)) }
    }
    // Subtract the WeakReference objects themselves (measured on objects that
    // already have side tables).
    var again: [WeakReference] = []
    again.reserveCapacity(n)
    let boxesOnly = countAllocations {
        for object in fresh { again.append(WeakReference(object)) }
    }
    let sideTableBytes = Double(stats.liveBytesDelta - boxesOnly.liveBytesDelta) / Double(n)

    let plain = (0..<1000).map { _ in Listener() }
    let weaklyReferenced = (0..<1000).map { _ in Listener() }
    formSideTables(weaklyReferenced)
    func retainRelease(_ source: [Listener]) -> Double {
        var destination = source
        copyReferences(from: source, into: &destination, times: 10)
        var samples: [Double] = []
        for _ in 0..<options.rounds {
            let start = now()
            copyReferences(from: source, into: &destination, times: 100)
            samples.append(Double(now() - start) / Double(100 * source.count))
        }
        return median(samples)
    }
    let plainPair = retainRelease(plain)
    let sidePair = retainRelease(weaklyReferenced)

    let strongPlain = StrongArray()
    plain.forEach(strongPlain.add)
    let strongSide = StrongArray()
    weaklyReferenced.forEach(strongSide.add)
    let results = measure(
        [contestant(strongPlain, listeners: plain), contestant(strongSide, listeners: weaklyReferenced)],
        expectedDeliveries: 1000, options: options)
    withExtendedLifetime((references, again)) {}
    let loads = weakAndStrongLoadCost(iterations: 2_000_000, rounds: options.quick ? 5 : 21)
    return SideTableCost(
        sideTableBytesPerObject: sideTableBytes,
        nsPerRetainReleasePlain: plainPair, nsPerRetainReleaseSideTable: sidePair,
        strongArrayNsPerDeliveryPlain: results[0].ns / 1000,
        strongArrayNsPerDeliverySideTable: results[1].ns / 1000,
        nsPerWeakLoad: loads.weak, nsPerStrongLoad: loads.strong)
}

/// Two threads broadcast to 100 listeners while a third adds and removes.
///
/// The third adds and removes another 100. Reported: wall time per broadcast per broadcasting thread.
func concurrentScenario(options: Options) -> [Row] {
    let n = 100
    var result: [Row] = []
    var measurements: [(String, Double)] = []
    for type in allImplementations where type.isThreadSafe {
        let implementation = type.init()
        let listeners = (0..<n).map { _ in Listener() }
        listeners.forEach(implementation.add)
        let churn = (0..<n).map { _ in Listener() }
        let post = Post(id: 1)
        implementation.broadcast(post, times: 10)
        let counts = BroadcastCounts()
        let group = DispatchGroup()
        let deadline = now() + UInt64(options.concurrentSeconds * 1e9)
        let start = now()
        for thread in 0..<2 {
            group.enter()
            Thread {
                var made = 0
                while now() < deadline {
                    implementation.broadcast(post, times: 16)
                    made += 16
                }
                counts.set(thread, made)
                group.leave()
            }.start()
        }
        group.enter()
        Thread {
            var index = 0
            while now() < deadline {
                let listener = churn[index % n]
                implementation.add(listener)
                implementation.remove(listener)
                index += 1
            }
            group.leave()
        }.start()
        group.wait()
        let elapsed = Double(now() - start)
        let total = counts.total
        // Two threads add to the counters without synchronization, so a few
        // increments may be lost; a broken delivery would lose far more.
        let delivered = listeners.reduce(0) { $0 &+ $1.received }
        if Double(delivered) < 0.5 * Double((total + 10) * n) {
            print("warning: \(type.name) delivered \(delivered) of \((total + 10) * n) in the concurrent scenario")
        }
        measurements.append((type.name, elapsed * 2 / Double(max(total, 1))))
    }
    let reference = measurements.first { $0.0 == referenceName }?.1
    for (name, ns) in measurements {
        result.append(
            Row(
                implementation: name, scenario: "2-broadcasting-1-churning", n: n, nsPerBroadcast: ns,
                nsPerDelivery: ns / Double(n), ratioToReference: reference.map { ns / $0 },
                allocationsPerBroadcast: nil))
    }
    return result
}

final class BroadcastCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = [0, 0]
    func set(_ index: Int, _ value: Int) { lock.withLock { counts[index] = value } }
    var total: Int { lock.withLock { counts.reduce(0, +) } }
}

/// A background task broadcasts to 10 listeners registered on the main actor.
@MainActor
func hopScenario(options: Options) async -> [Row] {
    let n = 10
    let times = options.hopBroadcasts
    var samples = Array(repeating: [Double](), count: allHopImplementations.count)
    var allocations: [Double?] = Array(repeating: nil, count: allHopImplementations.count)
    let implementations = allHopImplementations.map { $0.init() }
    var listenerSets: [[Listener]] = []
    for implementation in implementations {
        let listeners = (0..<n).map { _ in Listener() }
        for listener in listeners { implementation.add(listener) }
        listenerSets.append(listeners)
    }
    let post = Post(id: 1)
    for round in 0..<options.hopRounds {
        for (index, implementation) in implementations.enumerated() {
            let before = listenerSets[index].reduce(0) { $0 + $1.received }
            let countThisRound = round == 0 && allocationCounting
            if countThisRound { cac_start() }
            let elapsed = await Task.detached {
                let start = now()
                await implementation.broadcastFromBackground(post, times: times, listenerCount: n)
                return Double(now() - start)
            }.value
            if countThisRound {
                allocations[index] = Double(cac_stop().allocations) / Double(times)
            } else {
                samples[index].append(elapsed / Double(times))
            }
            let made = listenerSets[index].reduce(0) { $0 + $1.received } - before
            if made != times * n {
                print(
                    "warning: \(type(of: implementation).name) delivered \(made) of \(times * n) before its barrier returned"
                )
            }
        }
    }
    let medians = samples.map(median)
    return implementations.indices.map { index in
        Row(
            implementation: type(of: implementations[index]).name, scenario: "hop-to-main-actor", n: n,
            nsPerBroadcast: medians[index], nsPerDelivery: medians[index] / Double(n),
            ratioToReference: medians[index] / medians[0], allocationsPerBroadcast: allocations[index])
    }
}

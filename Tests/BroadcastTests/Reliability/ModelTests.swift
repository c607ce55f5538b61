import Broadcast
import Foundation
import Testing

/// Model-based randomized test: thousands of seeded operation sequences, each
/// run against the real ``Broadcaster`` and the sequential ``ReferenceModel``.
///
/// After every step the deliveries (who, in what order, how many, and what
/// each broadcast returned, nested ones included) and the registry queries
/// must be identical.
///
/// A failing sequence prints its seed, mode, step, the operations so far and
/// both logs. Replay it alone with
/// `BROADCAST_MODEL_SEED=<seed> swift test --filter ReliabilityModel`;
/// `BROADCAST_MODEL_SEQUENCES=<n>` changes how many sequences each mode runs.
@Suite("Reliability: model-based randomized sequences", .timeLimit(.minutes(ReliabilityTimeLimits.modelMinutes)))
struct ReliabilityModelTests {
    /// Steps per sequence: long enough for compactions and address reuse.
    static let steps = 40

    /// The seeds to run for `mode`: the replay seed if one is set, otherwise
    /// a fixed range per mode, so CI runs are reproducible.
    static func seeds(for mode: ModelMode, defaultCount: Int) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["BROADCAST_MODEL_SEED"], let seed = UInt64(text) { return [seed] }
        let count = environment["BROADCAST_MODEL_SEQUENCES"].flatMap(Int.init) ?? defaultCount
        let base = UInt64(mode.seedBase)
        return (0..<UInt64(count)).map { base + $0 }
    }

    @Test("synchronous broadcasts from a plain thread match the model")
    func synchronousSequences() async {
        await Self.run(.synchronous, defaultCount: 2000)
    }

    @Test("awaited broadcasts (counted, then the barrier) match the model")
    func awaitedSequences() async {
        await Self.run(.awaited, defaultCount: 600)
    }

    @Test("main-actor registrations and broadcasts match the model")
    @MainActor
    func mainActorSequences() async {
        await Self.run(.mainActor, defaultCount: 600)
    }

    static func run(_ mode: ModelMode, defaultCount: Int, isolation: isolated (any Actor)? = #isolation) async {
        let seeds = seeds(for: mode, defaultCount: defaultCount)
        let verbose = seeds.count == 1
        for seed in seeds {
            if let failure = await runModelSequence(seed: seed, mode: mode, steps: steps, verbose: verbose) {
                print(failure)
                Issue.record(Comment(rawValue: failure))
                return  // one failing seed is enough to act on
            }
            await Task.yield()  // let other suites' main-actor and pool work run
        }
    }
}

enum ModelMode: String, Sendable {
    /// Non-isolated test, `broadcast`, listeners registered with no actor.
    case synchronous
    /// Same, top-level broadcasts counted, then the barrier.
    case awaited
    /// Everything from main-actor code: listeners registered on the main actor
    /// are called synchronously when the broadcast is made there.
    case mainActor

    var seedBase: Int {
        switch self {
        case .synchronous: 1_000_000
        case .awaited: 2_000_000
        case .mainActor: 3_000_000
        }
    }
}

/// Runs one seeded sequence; returns a failure report, or nil if the real
/// broadcaster matched the model at every step.
func runModelSequence(
    seed: UInt64, mode: ModelMode, steps: Int, verbose: Bool,
    isolation: isolated (any Actor)? = #isolation
) async -> String? {
    var generator = ModelGenerator(seed: seed)
    var model = ReferenceModel()
    let harness = ModelHarness(reactOnMainActor: mode == .mainActor)
    if mode != .mainActor { await harness.settleListenerClasses() }
    var history: [String] = []
    for step in 0..<steps {
        let operation = generator.nextOperation(held: model.held.sorted())
        history.append("  \(step): \(operation)")
        model.apply(operation)
        await harness.perform(operation, awaited: mode == .awaited)

        var mismatches: [String] = []
        if harness.log != model.log {
            mismatches.append("deliveries\n    expected: \(model.log)\n    actual:   \(harness.log)")
        }
        for target in ModelTarget.allCases {
            let expected = model.members(of: target)
            let actual = harness.observedMembers(of: target)
            if actual != expected {
                mismatches.append("listeners(of: \(target)) expected \(expected), actual \(actual)")
            }
            let count = harness.observedCount(of: target)
            if count != expected.count {
                mismatches.append("listenerCount(of: \(target)) expected \(expected.count), actual \(count)")
            }
        }
        if harness.broadcaster.registrationCount != model.liveCount {
            mismatches.append(
                "registrationCount expected \(model.liveCount), actual \(harness.broadcaster.registrationCount)")
        }
        if verbose { print(history.last!, "->", harness.log) }
        if !mismatches.isEmpty {
            return """
                Model mismatch: mode \(mode.rawValue), seed \(seed), step \(step).
                Replay: BROADCAST_MODEL_SEED=\(seed) swift test --filter ReliabilityModel
                Operations:
                \(history.joined(separator: "\n"))
                Mismatches:
                  \(mismatches.joined(separator: "\n  "))
                """
        }
        model.log.removeAll()
        harness.log.removeAll()
    }
    return nil
}

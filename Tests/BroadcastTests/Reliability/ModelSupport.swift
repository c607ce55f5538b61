import Broadcast

// Listener vocabulary for the model-based test (ModelTests.swift).
//
// Three protocols, one refining another, and a small class hierarchy, so that
// every broadcast target is matched by a different subset of listener kinds:
//
//   target   | plain  a  b  ab  c  cb  aSub  aSubC
//   ModelPA  |        x     x   x  x   x     x       (ModelPC refines ModelPA)
//   ModelPB  |           x  x      x
//   ModelPC  |                  x  x         x
//   ModelA   |        x     x          x     x       (class target: subclasses)

protocol ModelPA: AnyObject { func receiveA(_ plan: Int) }
protocol ModelPB: AnyObject { func receiveB(_ plan: Int) }
protocol ModelPC: ModelPA { func receiveC(_ plan: Int) }

/// Base of every model listener: reports each call to the harness, which logs
/// it and runs the reactions the plan scheduled for this listener.
class ModelListener {
    let id: Int
    /// Unowned: the harness owns its listeners (through `held`), not the other
    /// way round, and outlives every call into them.
    unowned let harness: ModelHarness

    init(id: Int, harness: ModelHarness) {
        self.id = id
        self.harness = harness
    }

    final func received(_ plan: Int) { harness.delivered(listener: id, plan: plan) }
}

class ModelA: ModelListener, ModelPA {
    func receiveA(_ plan: Int) { received(plan) }
    func receiveClass(_ plan: Int) { received(plan) }
}
final class ModelB: ModelListener, ModelPB {
    func receiveB(_ plan: Int) { received(plan) }
}
final class ModelAB: ModelA, ModelPB {
    func receiveB(_ plan: Int) { received(plan) }
}
final class ModelC: ModelListener, ModelPC {
    func receiveA(_ plan: Int) { received(plan) }
    func receiveC(_ plan: Int) { received(plan) }
}
final class ModelCB: ModelListener, ModelPC, ModelPB {
    func receiveA(_ plan: Int) { received(plan) }
    func receiveB(_ plan: Int) { received(plan) }
    func receiveC(_ plan: Int) { received(plan) }
}
final class ModelASub: ModelA {}
final class ModelASubC: ModelA, ModelPC {
    func receiveC(_ plan: Int) { received(plan) }
}

enum ModelTarget: Int, Sendable, CaseIterable, CustomStringConvertible {
    case a, b, c, classA
    var description: String { ["PA", "PB", "PC", "class A"][rawValue] }
}

enum ModelKind: Int, Sendable, CaseIterable, CustomStringConvertible {
    case plain, a, b, ab, c, cb, aSub, aSubC

    var targets: Set<ModelTarget> {
        switch self {
        case .plain: []
        case .a, .aSub: [.a, .classA]
        case .b: [.b]
        case .ab: [.a, .b, .classA]
        case .c: [.a, .c]
        case .cb: [.a, .b, .c]
        case .aSubC: [.a, .c, .classA]
        }
    }

    func make(id: Int, harness: ModelHarness) -> ModelListener {
        switch self {
        case .plain: ModelListener(id: id, harness: harness)
        case .a: ModelA(id: id, harness: harness)
        case .b: ModelB(id: id, harness: harness)
        case .ab: ModelAB(id: id, harness: harness)
        case .c: ModelC(id: id, harness: harness)
        case .cb: ModelCB(id: id, harness: harness)
        case .aSub: ModelASub(id: id, harness: harness)
        case .aSubC: ModelASubC(id: id, harness: harness)
        }
    }

    var description: String { ["plain", "A", "B", "AB", "C", "CB", "ASub", "ASubC"][rawValue] }
}

// MARK: - Operations

/// One broadcast, with what listeners do when this broadcast calls them.
struct ModelPlan: Sendable, CustomStringConvertible {
    let id: Int
    let target: ModelTarget
    /// Listener id -> actions it performs when this broadcast calls it.
    let reactions: [Int: [ModelAction]]

    var description: String {
        var text = "broadcast#\(id) to \(target)"
        if !reactions.isEmpty {
            let parts = reactions.keys.sorted().map { key in
                "L\(key): [\(reactions[key]!.map(\.description).joined(separator: ", "))]"
            }
            text += " { " + parts.joined(separator: "; ") + " }"
        }
        return text
    }

    /// This plan and every plan nested in its reactions.
    var allPlans: [ModelPlan] {
        [self]
            + reactions.keys.sorted().flatMap { key in
                reactions[key]!.flatMap { action -> [ModelPlan] in
                    if case .broadcast(let plan) = action { return plan.allPlans }
                    return []
                }
            }
    }
}

indirect enum ModelAction: Sendable, CustomStringConvertible {
    /// Make a new listener (held by the test) and optionally register it.
    case create(id: Int, kind: ModelKind, register: Bool)
    /// `addListener` on a held listener (registered already or not).
    case add(Int)
    /// `removeListener` on a held listener (registered or not).
    case remove(Int)
    /// Drop the test's only strong reference.
    case release(Int)
    case broadcast(ModelPlan)

    var description: String {
        switch self {
        case .create(let id, let kind, let register): "\(register ? "create+add" : "create") L\(id):\(kind)"
        case .add(let id): "add L\(id)"
        case .remove(let id): "remove L\(id)"
        case .release(let id): "release L\(id)"
        case .broadcast(let plan): plan.description
        }
    }
}

/// What the test observes: calls, and the count each broadcast returned.
enum ModelEvent: Equatable, CustomStringConvertible {
    case delivered(plan: Int, listener: Int)
    case returned(plan: Int, count: Int)

    var description: String {
        switch self {
        case .delivered(let plan, let listener): "#\(plan)->L\(listener)"
        case .returned(let plan, let count): "#\(plan) returned \(count)"
        }
    }
}

// MARK: - Seeded generator

/// SplitMix64: tiny, fast, and the same sequence on every platform.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform-enough in 0..<bound (bias is irrelevant here).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Generates operations from the model's current state, so a seed alone
/// determines the whole sequence (and its replay).
struct ModelGenerator {
    var rng: SplitMix64
    private var nextListener = 0
    private var nextPlan = 0

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func nextOperation(held: [Int]) -> ModelAction {
        let roll = rng.below(100)
        let crowded = held.count > 12
        // Grow quickly to a few listeners, then keep the population stable.
        let creation = crowded ? 5 : held.count < 3 ? 50 : 20
        switch roll {
        case ..<creation: return newListener(register: rng.below(8) != 0)
        case ..<34 where !held.isEmpty: return .add(rng.pick(held))
        case ..<48 where !held.isEmpty: return .remove(rng.pick(held))
        case ..<(crowded ? 62 : 56) where !held.isEmpty: return .release(rng.pick(held))
        default: return .broadcast(plan(depth: 0, held: held))
        }
    }

    private mutating func newListener(register: Bool) -> ModelAction {
        defer { nextListener += 1 }
        return .create(id: nextListener, kind: rng.pick(ModelKind.allCases), register: register)
    }

    private mutating func plan(depth: Int, held: [Int]) -> ModelPlan {
        let id = nextPlan
        nextPlan += 1
        let target = rng.pick(ModelTarget.allCases)
        var reactions: [Int: [ModelAction]] = [:]
        if !held.isEmpty, rng.chance(depth == 0 ? 60 : 35) {
            for _ in 0..<(1 + rng.below(3)) {
                let listener = rng.pick(held)
                var actions = reactions[listener] ?? []
                for _ in 0..<(1 + rng.below(2)) {
                    actions.append(reaction(depth: depth, held: held, caller: listener))
                }
                reactions[listener] = actions
            }
        }
        return ModelPlan(id: id, target: target, reactions: reactions)
    }

    private mutating func reaction(depth: Int, held: [Int], caller: Int) -> ModelAction {
        // Acting on the caller itself is the interesting case; weight it.
        let subject = rng.chance(30) ? caller : rng.pick(held)
        switch rng.below(depth < 3 ? 6 : 5) {
        case 0: return newListener(register: true)
        case 1: return .add(subject)
        case 2: return .remove(subject)
        case 3: return .release(subject)
        case 4: return .remove(rng.pick(held))
        default:
            return .broadcast(plan(depth: depth + 1, held: held))
        }
    }
}

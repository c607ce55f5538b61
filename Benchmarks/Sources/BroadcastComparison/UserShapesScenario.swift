import BenchmarkKit
import BenchmarkMainActorClient
import Foundation

// The shapes apps write (BenchmarkKit/UserShapes.swift and the
// default-MainActor client module), side by side with their hand-written
// floor: a struct payload, two values, listeners registered from main-actor
// code and broadcast there.

/// The shapes measured, each with its own fresh listeners.
@MainActor
func userShapes(listenerCount n: Int) -> [any UserShape] {
    [WeakTypedValueShape(listenerCount: n)]
        + BroadcastForm.allCases.flatMap { form -> [any UserShape] in
            [
                ValueShape(listenerCount: n, form: form),
                TwoValuesShape(listenerCount: n, form: form),
                MainActorValueShape(listenerCount: n, form: form),
                MainActorClientShape(listenerCount: n, form: form),
            ]
        }
}

/// N listeners of each shape; one broadcast delivers to all of them.
///
/// `× ref`
/// is ns per delivery ÷ the struct-payload floor's.
@MainActor
func userShapesScenario(n: Int, options: Options) -> [Row] {
    let shapes = userShapes(listenerCount: n)
    let contestants = shapes.map { shape in
        Contestant(name: shape.name, run: { shape.broadcast(times: $0) }, delivered: { shape.delivered })
    }
    let results = measure(contestants, expectedDeliveries: n, options: options)
    let floor = results[contestants.firstIndex { $0.name == WeakTypedValueShape.name }!].ns
    return contestants.indices.map { index in
        Row(
            implementation: contestants[index].name, scenario: userShapesScenarioName, n: n,
            nsPerBroadcast: results[index].ns, nsPerDelivery: results[index].ns / Double(n),
            ratioToReference: results[index].ns / floor, allocationsPerBroadcast: results[index].allocations)
    }
}

let userShapesScenarioName = "deliver-user-shapes"

/// Runs the scenario for each N and prints its table.
@MainActor
func userShapesSection(options: Options) -> [Row] {
    var rows: [Row] = []
    for n in options.userShapeNValues { rows += userShapesScenario(n: n, options: options) }
    printTable(
        "What apps write: struct payload, two values, main-actor listeners (× ref = ns per delivery ÷ "
            + "\(WeakTypedValueShape.name)'s)", rows)
    return rows
}

/// Shapes that must not allocate per broadcast, by name (the runner fails
/// when one does).
@MainActor
let zeroAllocationShapes: Set<String> = Set(userShapes(listenerCount: 0).filter(\.allocatesNothing).map(\.name))

extension Options {
    var userShapeNValues: [Int] { [1, 1000] }
}

/// The targets on the user shapes (see Docs/Benchmarks.md, "Targets").
func addUserShapeTargets(
    rows: [Row], add: (String, Double?, (Double) -> String, (Double) -> Bool) -> Void
) {
    func row(_ name: String, _ n: Int) -> Row? {
        rows.first { $0.implementation == name && $0.scenario == userShapesScenarioName && $0.n == n }
    }
    func ratio(_ a: Double?, _ b: Double?) -> Double? {
        guard let a, let b, b > 0 else { return nil }
        return a / b
    }
    let x = { (v: Double) in String(format: "%.2f×", v) }
    let nonisolated = "Broadcaster, struct payload, with:"
    let mainActor = "Broadcaster, struct payload, with:, main actor"
    add(
        "main-actor listeners, per delivery at N = 1000 ≤ 1.05× the same listeners registered from non-isolated code",
        ratio(row(mainActor, 1000)?.nsPerDelivery, row(nonisolated, 1000)?.nsPerDelivery), x
    ) { $0 <= 1.05 }
    add(
        "main-actor listeners, one broadcast to 1 ≤ 1.5× \(WeakTypedValueShape.name)'s",
        ratio(row(mainActor, 1)?.nsPerBroadcast, row(WeakTypedValueShape.name, 1)?.nsPerBroadcast), x
    ) { $0 <= 1.5 }
    add(
        "0 allocations per broadcast, `with:` (struct payload, two values, main actor, default-MainActor module; N = 1 and 1000)",
        rows.filter {
            $0.scenario == userShapesScenarioName
                && MainActor.assumeIsolated { zeroAllocationShapes }.contains($0.implementation)
        }
        .compactMap(\.allocationsPerBroadcast).max(),
        { String(format: "%.2f", $0) }
    ) { $0 == 0 }
}

/// Exits with status 1 if a row documented to allocate nothing allocated.
///
/// The rows checked: the class-payload `Broadcaster` rows (same thread)
/// and the `with:` rows of the user shapes. Allocation counts do not depend
/// on the machine's load, so CI's quick run checks them.
func checkAllocations(_ rows: [Row]) {
    let zeroShapes = MainActor.assumeIsolated { zeroAllocationShapes }
    let checked = rows.filter { row in
        (row.scenario == "deliver" && row.implementation == BroadcasterImplementation.name)
            || (row.scenario == userShapesScenarioName && zeroShapes.contains(row.implementation))
    }
    let allocating = checked.filter { ($0.allocationsPerBroadcast ?? 0) > 0 }
    guard allocatesAtAll(checked) else { return }
    guard !allocating.isEmpty else {
        print("Allocation check: \(checked.count) rows documented to allocate nothing allocated nothing.")
        return
    }
    for row in allocating {
        print(
            "error: \(row.implementation) (N = \(row.n)) allocated \(format(row.allocationsPerBroadcast, digits: 2)) times per broadcast; documented: 0"
        )
    }
    exit(1)
}

/// Whether the counter ran (it does not on every platform).
private func allocatesAtAll(_ rows: [Row]) -> Bool {
    guard allocationCounting else {
        print("warning: allocation counting is not active; the allocation check did not run")
        return false
    }
    return !rows.isEmpty
}

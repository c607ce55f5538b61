import BenchmarkKit
import BenchmarkMainActorClient
import Foundation

// The shapes apps write (BenchmarkKit/UserShapes.swift and the
// default-MainActor client module), side by side with their hand-written
// floor: a struct payload, two values, listeners registered from main-actor
// code and broadcast there.

/// The shapes measured, each with its own fresh listeners: the three floors
/// (typed, cast, isolation-checking cast), the library's shapes and the
/// peers, all with the struct payload.
@MainActor
func userShapes(listenerCount n: Int) -> [any UserShape] {
    [
        WeakTypedValueShape(listenerCount: n), WeakCastValueShape(listenerCount: n),
        WeakGenericCastValueShape(listenerCount: n),
    ]
        + BroadcastForm.allCases.flatMap { form -> [any UserShape] in
            [
                ValueShape(listenerCount: n, form: form),
                TwoValuesShape(listenerCount: n, form: form),
                MainActorValueShape(listenerCount: n, form: form),
                MainActorClientShape(listenerCount: n, form: form),
            ]
        }
        + [
            TappedValueShape(listenerCount: n),
            NotificationCenterValueShape(listenerCount: n), MainActorMessageValueShape(listenerCount: n),
            OpenCombineValueShape(listenerCount: n),
        ]
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
        "What apps write: struct payload, two values, main-actor listeners; the floors and the peers with the "
            + "same payload (× ref = ns per delivery ÷ "
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

/// Exits with status 1 if a row documented to allocate nothing allocated.
///
/// The rows checked: the class-payload `Broadcaster` rows (same thread),
/// the `with:` rows of the user shapes and every `post` to handlers or
/// `EventListener` objects. Allocation counts do not depend
/// on the machine's load, so CI's quick run checks them.
func checkAllocations(_ rows: [Row]) {
    let zeroShapes = MainActor.assumeIsolated { zeroAllocationShapes }
    let zeroEventShapes = MainActor.assumeIsolated { zeroAllocationEventShapes }
    let checked = rows.filter { row in
        (row.scenario == "deliver" && row.implementation == BroadcasterImplementation.name)
            || (row.scenario == userShapesScenarioName && zeroShapes.contains(row.implementation))
            || (row.scenario == eventScenarioName && zeroEventShapes.contains(row.implementation))
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

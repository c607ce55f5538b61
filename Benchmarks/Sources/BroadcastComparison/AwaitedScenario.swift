import BenchmarkKit
import Foundation

// Awaited asynchronous delivery: N listeners whose `async` method is awaited,
// from a task with no actor; listeners with no actor, and main-actor
// listeners registered from main-actor code. Reported per broadcast (every
// listener's call returned), × ref = against the hand-written await loop.

/// The awaited scenarios' rows, in the table's shape.
@MainActor
func awaitedScenario(options: Options) async -> [Row] {
    var rows: [Row] = []
    for n in [1, 1000] {
        rows += await awaitedRows(n: n, onMainActor: false, options: options)
        rows += await awaitedRows(n: n, onMainActor: true, options: options)
    }
    return rows
}

/// Prints the awaited rows, one table per kind of listener.
func printAwaitedTables(_ rows: [Row]) {
    for (scenario, title) in [
        ("awaited-nonisolated", "listeners with no actor"),
        ("awaited-main-actor", "main-actor listeners registered from main-actor code"),
    ] {
        printTable(
            "Awaited async broadcast from a task with no actor to N \(title) (× ref = vs \(WeakBoxAwaitLoop.name))",
            rows.filter { $0.scenario == scenario })
    }
}

@MainActor
private func awaitedRows(n: Int, onMainActor: Bool, options: Options) async -> [Row] {
    var implementations: [any AwaitedImplementation] = []
    var counters: [() -> Int] = []
    var keep: [AnyObject] = []
    for type in allAwaitedImplementations {
        let implementation = type.init()
        if onMainActor {
            let listeners = (0..<n).map { _ in MainActorSessionCounter() }
            for listener in listeners { implementation.addOnMainActor(listener) }
            counters.append { listeners.reduce(0) { $0 + $1.received } }
            keep += listeners
        } else {
            let listeners = (0..<n).map { _ in SessionCounter() }
            // Registered from code with no actor, as a service would be.
            await Task.detached { for listener in listeners { implementation.add(listener) } }.value
            counters.append { listeners.reduce(0) { $0 + $1.received } }
            keep += listeners
        }
        implementations.append(implementation)
    }

    // Check each delivers to every listener once per sign-out.
    for (index, implementation) in implementations.enumerated() {
        let before = counters[index]()
        await signOut(implementation, times: 1)
        let made = counters[index]() - before
        if made != n { print("warning: \(type(of: implementation).name) delivered \(made), expected \(n)") }
    }

    // Calibrate, then time rounds in a changing order; report the median.
    var iterations: [Int] = []
    for implementation in implementations {
        var times = 1
        while true {
            let start = now()
            await signOut(implementation, times: times)
            let elapsed = Double(now() - start)
            if elapsed >= options.sampleNanoseconds / 4 || times >= 1 << 20 {
                iterations.append(max(1, Int(Double(times) * options.sampleNanoseconds / max(elapsed, 1))))
                break
            }
            times *= 4
        }
    }
    var samples = Array(repeating: [Double](), count: implementations.count)
    var generator = SplitMix(seed: 18)
    for _ in 0..<options.rounds {
        for index in Array(implementations.indices).shuffled(using: &generator) {
            let start = now()
            await signOut(implementations[index], times: iterations[index])
            samples[index].append(Double(now() - start) / Double(iterations[index]))
        }
    }
    withExtendedLifetime(keep) {}

    let scenario = onMainActor ? "awaited-main-actor" : "awaited-nonisolated"
    let results = samples.map(median)
    let reference = results[0]
    return implementations.indices.map { index in
        Row(
            implementation: type(of: implementations[index]).name, scenario: scenario, n: n,
            nsPerBroadcast: results[index], nsPerDelivery: results[index] / Double(n),
            ratioToReference: results[index] / reference, allocationsPerBroadcast: nil)
    }
}

/// Signs out from a task with no actor (the runner itself is on the main
/// actor), so every implementation pays the same hop in and out.
private func signOut(_ implementation: any AwaitedImplementation, times: Int) async {
    await Task.detached { await implementation.signOut(times: times) }.value
}

import Benchmark
import BenchmarkKit
import BenchmarkMainActorClient

// package-benchmark view of the shapes apps write (see BroadcastComparison's
// "What apps write" table): struct payload, two values, main-actor listeners,
// a default-MainActor module, each in both forms (closure capturing the
// payload, and `with:`). Malloc counts per broadcast come out of
// `mallocCountTotal` (with the harness's constant overhead, see
// Docs/Benchmarks.md).

/// Keeps a shape made on the main actor by a benchmark's setup.
final class ShapeHolder: @unchecked Sendable {
    // @unchecked Sendable: written once by the setup hook, before the
    // benchmark's closure reads it; package-benchmark runs them in sequence.
    var shape: (any UserShape)?
}

/// The shapes, by the short names `BroadcastProfile` uses.
let userShapeKeys = [
    "floor-value", "value-closure", "value-with", "two-closure", "two-with", "main-actor-closure", "main-actor-with",
    "client-closure", "client-with",
]

/// The shape named `key`, with `n` listeners.
@MainActor
func makeUserShape(_ key: String, listenerCount n: Int) -> any UserShape {
    let form: BroadcastForm = key.hasSuffix("-with") ? .with : .closure
    switch key {
    case "value-closure", "value-with": return ValueShape(listenerCount: n, form: form)
    case "two-closure", "two-with": return TwoValuesShape(listenerCount: n, form: form)
    case "main-actor-closure", "main-actor-with": return MainActorValueShape(listenerCount: n, form: form)
    case "client-closure", "client-with": return MainActorClientShape(listenerCount: n, form: form)
    default: return WeakTypedValueShape(listenerCount: n)
    }
}

func registerUserShapeBenchmarks() {
    for n in [1, 1000] {
        for key in userShapeKeys {
            let holder = ShapeHolder()
            Benchmark(
                "deliver N=\(n) \(key)",
                configuration: .init(scalingFactor: n == 1 ? .kilo : .one),
                closure: { (benchmark: Benchmark) async in
                    // Every shape broadcasts on the main actor (the
                    // main-actor ones must); one hop per measured batch.
                    let iterations = benchmark.scaledIterations
                    let shape = holder.shape
                    await MainActor.run {
                        for _ in iterations { shape?.broadcast(times: 1) }
                    }
                },
                setup: { holder.shape = await MainActor.run { makeUserShape(key, listenerCount: n) } },
                teardown: { holder.shape = nil })
        }
    }
}

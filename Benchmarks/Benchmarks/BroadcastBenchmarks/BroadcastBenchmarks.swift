import Benchmark
import BenchmarkKit

// package-benchmark view of the core scenarios: percentiles of wall clock and
// CPU time, instructions, and malloc counts per broadcast, one benchmark per
// implementation and N. Run with
//
//   swift package --package-path Benchmarks benchmark
//
// The side-by-side ratio table and the JSON come from the BroadcastComparison
// executable instead (see Docs/Benchmarks.md for why).

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .memoryLeaked],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000)

    for n in [1, 1000] {
        // MainActorMessages needs the main actor, which benchmarks do not run on.
        for type in allImplementations where type.isThreadSafe {
            let implementation = type.init()
            let listeners = (0..<n).map { _ in Listener() }
            listeners.forEach(implementation.add)
            let post = Post(id: 1)
            Benchmark(
                "deliver N=\(n) \(type.name)",
                configuration: .init(scalingFactor: n == 1 ? .kilo : .one)
            ) { (benchmark: Benchmark) in
                for _ in benchmark.scaledIterations {
                    implementation.broadcast(post, times: 1)
                }
                BenchmarkKit.blackHole(listeners)
            }
        }
    }
    registerUserShapeBenchmarks()
}

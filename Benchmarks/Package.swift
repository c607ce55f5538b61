// swift-tools-version: 6.2
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone of the
// repository may sit in a folder of any name (CI clones afresh), so the root
// package's identity is derived from where this manifest is.
let rootPackage =
    Context.packageDirectory
    .split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "broadcast"

// The benchmark package. It lives apart from the library so that `Broadcast`
// itself stays dependency-free: package-benchmark and OpenCombine are only
// resolved when someone builds the benchmarks.
//
// - `BroadcastComparison` (executable): the side-by-side runner. One command
//   prints the comparison table and writes the JSON (see Docs/Benchmarks.md).
//   It needs no package-benchmark code, so the CI smoke build stays small.
// - `BroadcastBenchmarks` (package-benchmark target): percentiles and malloc
//   counters for the core scenarios, run with `swift package benchmark`.
let package = Package(
    name: "BroadcastBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // Counts malloc calls and bytes by replacing the allocator's entry
        // points in the runner executable (glibc's __libc_* functions do the work).
        .target(name: "CAllocCounter"),
        // The isolation-checking cast floor's cast: a generic function in a
        // module of its own, built with library evolution so that no body
        // crosses the module boundary. (Release builds otherwise export small
        // bodies for cross-module optimization, and BenchmarkKit would
        // specialize the cast into a direct `swift_conformsToProtocol` call.)
        // The cast then goes through `swift_dynamicCast`, as in a library's
        // unspecialized code; checked with objdump (Docs/Benchmarks.md,
        // "What is compared").
        .target(name: "BenchmarkGenericCast", swiftSettings: [.unsafeFlags(["-enable-library-evolution"])]),
        .target(
            name: "BenchmarkKit",
            dependencies: [
                "BenchmarkGenericCast",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            // The listeners' `received &+= 1` would otherwise pay a dynamic
            // exclusivity check (swift_beginAccess, ~60 instructions) in every
            // delivery of every implementation, hiding the differences.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]
        ),
        // An app module with Xcode's defaults (main-actor isolation by
        // default), whose listeners and typed broadcasts are written as an
        // app writes them.
        .target(
            name: "BenchmarkMainActorClient",
            dependencies: [
                "BenchmarkKit",
                .product(name: "Broadcast", package: rootPackage),
            ],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]
        ),
        .executableTarget(
            name: "BroadcastComparison",
            dependencies: ["BenchmarkKit", "BenchmarkMainActorClient", "CAllocCounter"]
        ),
        // A fixed workload to run under valgrind's callgrind.
        .executableTarget(name: "BroadcastProfile", dependencies: ["BenchmarkKit", "BenchmarkMainActorClient"]),
        .executableTarget(
            name: "BroadcastBenchmarks",
            dependencies: [
                "BenchmarkKit",
                "BenchmarkMainActorClient",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/BroadcastBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone of the
// repository may sit in a folder of any name (CI clones afresh), so the root
// package's identity is derived from where this manifest is (two folders up).
let rootPackage =
    Context.packageDirectory
    .split(separator: "/").dropLast(2).last.map { String($0).lowercased() } ?? "broadcast"

// The tests, compiled examples and benchmark of the taps for swift-log,
// swift-metrics and swift-distributed-tracing. The taps are the root
// package's `BroadcastLogging`, `BroadcastMetrics` and `BroadcastTracing`
// libraries, behind its `Logging`, `Metrics` and `Tracing` traits, so that an
// app depending on Broadcast resolves none of those packages; this package
// enables the traits, as a server's package does.
//
// - `BroadcastObservabilityTests`: each tap against its library's own test
//   backend (swift-log's `InMemoryLogHandler`, swift-metrics' `TestMetrics`,
//   swift-distributed-tracing's `InMemoryTracer`), and the README's examples.
// - `ObservabilityBenchmark` (executable): what each tap adds to a broadcast.
let package = Package(
    name: "ObservabilityChecks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "../..", traits: ["Logging", "Metrics", "Tracing"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .testTarget(
            name: "BroadcastObservabilityTests",
            dependencies: [
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "BroadcastLogging", package: rootPackage),
                .product(name: "BroadcastMetrics", package: rootPackage),
                .product(name: "BroadcastTracing", package: rootPackage),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .executableTarget(
            name: "ObservabilityBenchmark",
            dependencies: [
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "BroadcastLogging", package: rootPackage),
                .product(name: "BroadcastMetrics", package: rootPackage),
                .product(name: "BroadcastTracing", package: rootPackage),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone of the
// repository may sit in a folder of any name (CI clones afresh), so the root
// package's identity is derived from where this manifest is (two folders up).
let rootPackage =
    Context.packageDirectory
    .split(separator: "/").dropLast(2).last.map { String($0).lowercased() } ?? "broadcast"

// The PostgreSQL relay's tests, example and benchmark. The relay itself is the
// root package's `BroadcastPostgresRelay` library, behind its `PostgresRelay`
// trait, so that an app depending on Broadcast resolves none of postgres-nio's
// packages; this package enables the trait, as a server's package does.
//
// - `PostgresRelayExample` (executable): the README's service-group example, as written.
// - `RelayPeer` (executable): one relay instance in a process of its own, driven
//   through standard input and output by the two-process test.
// - `RelayBenchmark` (executable): post-to-handler latency and throughput between
//   two instances, against a hand-written LISTEN/NOTIFY loop.
// - `RelayTestSupport`: a throwaway PostgreSQL server and the events the tests relay.
let package = Package(
    name: "PostgresRelayChecks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "../..", traits: ["PostgresRelay"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .executableTarget(
            name: "PostgresRelayExample",
            dependencies: [
                .product(name: "BroadcastPostgresRelay", package: rootPackage),
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "RelayTestSupport",
            dependencies: [
                .product(name: "BroadcastPostgresRelay", package: rootPackage),
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "RelayPeer",
            dependencies: [
                "RelayTestSupport",
                .product(name: "BroadcastPostgresRelay", package: rootPackage),
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "RelayBenchmark",
            dependencies: [
                "RelayTestSupport",
                .product(name: "BroadcastPostgresRelay", package: rootPackage),
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "BroadcastPostgresRelayTests",
            dependencies: [
                // RelayPeer: built for the two-process test, which runs it.
                "RelayTestSupport", "RelayPeer",
                .product(name: "BroadcastPostgresRelay", package: rootPackage),
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

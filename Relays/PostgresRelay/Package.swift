// swift-tools-version: 6.2
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone of the
// repository may sit in a folder of any name (CI clones afresh), so the root
// package's identity is derived from where this manifest is (two folders up).
let rootPackage =
    Context.packageDirectory
    .split(separator: "/").dropLast(2).last.map { String($0).lowercased() } ?? "broadcast"

// The PostgreSQL relay: typed events posted on one server instance's
// broadcaster are posted on every other instance's, over LISTEN/NOTIFY. It
// lives apart from the library so that `Broadcast` itself stays
// dependency-free: postgres-nio is only resolved when someone builds the relay.
//
// - `BroadcastPostgresRelay` (library): the relay.
// - `PostgresRelayExample` (executable): the README's service-group example, as written.
// - `RelayPeer` (executable): one relay instance in a process of its own, driven
//   through standard input and output by the two-process test.
// - `RelayBenchmark` (executable): post-to-handler latency and throughput between
//   two instances, against a hand-written LISTEN/NOTIFY loop.
// - `RelayTestSupport`: a throwaway PostgreSQL server and the events the tests relay.
let package = Package(
    name: "BroadcastPostgresRelay",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "BroadcastPostgresRelay", targets: ["BroadcastPostgresRelay"])
    ],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "BroadcastPostgresRelay",
            dependencies: [
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its locks are `pthread` mutexes, which ThreadSanitizer sees
                // (`Synchronization.Mutex` on Linux is a futex it does not).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "PostgresRelayExample",
            dependencies: [
                "BroadcastPostgresRelay",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "RelayTestSupport",
            dependencies: [
                "BroadcastPostgresRelay",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "RelayPeer",
            dependencies: [
                "BroadcastPostgresRelay", "RelayTestSupport",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "RelayBenchmark",
            dependencies: [
                "BroadcastPostgresRelay", "RelayTestSupport",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "BroadcastPostgresRelayTests",
            dependencies: [
                // RelayPeer: built for the two-process test, which runs it.
                "BroadcastPostgresRelay", "RelayTestSupport", "RelayPeer",
                .product(name: "Broadcast", package: rootPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.2
import PackageDescription

// Minimum OS versions: `Mutex` and `Atomic` (the Synchronization module) need
// iOS 18 / macOS 15 / tvOS 18 / watchOS 11 / visionOS 2. The README explains why
// we chose them over an `NSLock`-based table that would run on older systems.
let package = Package(
    name: "Broadcast",
    platforms: [.iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Broadcast", targets: ["Broadcast"]),
        .library(name: "BroadcastSystemBridge", targets: ["BroadcastSystemBridge"]),
        // For test targets: a recorder of what a spy received, and a wait with a deadline.
        .library(name: "BroadcastTesting", targets: ["BroadcastTesting"]),
        .executable(name: "BroadcastDemo", targets: ["BroadcastDemo"]),
        // For servers: typed events between instances over PostgreSQL's
        // LISTEN/NOTIFY. Empty unless the `PostgresRelay` trait is enabled.
        .library(name: "BroadcastPostgresRelay", targets: ["BroadcastPostgresRelay"]),
        // Taps that report every broadcast and post to swift-log, swift-metrics
        // and swift-distributed-tracing. Each is empty unless its trait is enabled.
        .library(name: "BroadcastLogging", targets: ["BroadcastLogging"]),
        .library(name: "BroadcastMetrics", targets: ["BroadcastMetrics"]),
        .library(name: "BroadcastTracing", targets: ["BroadcastTracing"]),
    ],
    // Off by default: a package that leaves them off resolves none of the
    // dependencies below, as only trait-guarded targets use them.
    traits: [
        .trait(
            name: "PostgresRelay",
            description:
                "The BroadcastPostgresRelay library (postgres-nio, swift-nio, swift-log, swift-service-lifecycle, swift-distributed-tracing)"
        ),
        .trait(name: "Logging", description: "The BroadcastLogging library: a log line per broadcast (swift-log)"),
        .trait(
            name: "Metrics",
            description: "The BroadcastMetrics library: a counter and a timer per broadcast type (swift-metrics)"),
        .trait(
            name: "Tracing",
            description: "The BroadcastTracing library: a span per broadcast (swift-distributed-tracing)"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(name: "Broadcast"),
        .target(name: "BroadcastSystemBridge", dependencies: ["Broadcast"]),
        .target(name: "BroadcastTesting", dependencies: ["Broadcast"]),
        .executableTarget(
            name: "BroadcastDemo", dependencies: ["Broadcast", "BroadcastSystemBridge", "BroadcastTesting"]),
        // The README's quick start, as written, in a top-level main.swift.
        .executableTarget(name: "QuickStart", dependencies: ["Broadcast"]),
        // Its sources compile to nothing without the trait (`#if PostgresRelay`).
        // Its tests, example and benchmark are the package in Relays/PostgresRelay.
        .target(
            name: "BroadcastPostgresRelay",
            dependencies: [
                "Broadcast",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgresRelay"])),
                // Its locks are `pthread` mutexes, which ThreadSanitizer sees
                // (`Synchronization.Mutex` on Linux is a futex it does not).
                .product(
                    name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["PostgresRelay"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["PostgresRelay"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["PostgresRelay"])),
                // The trace context an envelope carries between instances
                // (`ServiceContext`, which this product includes).
                .product(
                    name: "Instrumentation", package: "swift-distributed-tracing",
                    condition: .when(traits: ["PostgresRelay"])),
            ]
        ),
        // The taps compile to nothing without their traits (`#if Logging`, ...).
        // Their tests, compiled examples and benchmark are the package in
        // Integrations/Observability.
        .target(
            name: "BroadcastLogging",
            dependencies: [
                "Broadcast",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        .target(
            name: "BroadcastMetrics",
            dependencies: [
                "Broadcast",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ]
        ),
        .target(
            name: "BroadcastTracing",
            dependencies: [
                "Broadcast",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ]
        ),
        .testTarget(name: "BroadcastTests", dependencies: ["Broadcast", "BroadcastTesting"]),
        .testTarget(name: "BroadcastSystemBridgeTests", dependencies: ["Broadcast", "BroadcastSystemBridge"]),
        .testTarget(name: "BroadcastTestingTests", dependencies: ["Broadcast", "BroadcastTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

// Warnings are errors when this package is built as the root package (its own
// builds, `swift test`, CI). SwiftPM suppresses the warnings of a package
// built as a dependency, so this setting never fails a client's build.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}

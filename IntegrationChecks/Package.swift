// swift-tools-version: 6.2
import PackageDescription

// SwiftPM names a path dependency after its folder, and a clone of the
// repository may sit in a folder of any name (CI clones afresh), so the root
// package's identity is derived from where this manifest is.
let rootPackage =
    Context.packageDirectory
    .split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "broadcast"

// Integration checks: programs that use Broadcast the way apps and tools do,
// in real processes, outside Swift Testing's tasks. They live apart from the
// library so that its manifest lists only what users depend on.
//
// - The host matrix (`scripts/host-matrix`): `HostScenario`, run by
//   `BroadcastHost` (top-level code, a run loop, `dispatchMain()`) and by
//   `BroadcastAsyncHost` (an async `main`).
// - The client-configuration matrix (`scripts/client-matrix`): the README's
//   quick start, the demo and a client scenario, each compiled from the same
//   source in the three configurations apps compile Broadcast's API in. The
//   folders under `Clients/<configuration>/` are links to that one source.

/// The three ways a client module is compiled.
enum ClientConfiguration: String, CaseIterable {
    /// Swift 6 language mode, default (nonisolated) isolation.
    case swift6 = "Swift6"
    /// A new Xcode app target: default actor isolation `MainActor`,
    /// `InferIsolatedConformances`, `NonisolatedNonsendingByDefault`.
    case appDefaults = "AppDefaults"
    /// Swift 5 language mode, as many existing apps are.
    case swift5 = "Swift5"

    var settings: [SwiftSetting] {
        let configuration: SwiftSetting = .define("CLIENT_CONFIGURATION_\(rawValue.uppercased())")
        switch self {
        case .swift6:
            return [configuration, .swiftLanguageMode(.v6)]
        case .appDefaults:
            return [
                configuration, .swiftLanguageMode(.v6),
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        case .swift5:
            return [configuration, .swiftLanguageMode(.v5)]
        }
    }
}

let broadcast: Target.Dependency = .product(name: "Broadcast", package: rootPackage)
let bridge: Target.Dependency = .product(name: "BroadcastSystemBridge", package: rootPackage)
let testing: Target.Dependency = .product(name: "BroadcastTesting", package: rootPackage)

/// One executable per program and configuration (`QuickStartAppDefaults`, …).
let clientTargets: [Target] = ClientConfiguration.allCases.flatMap { configuration in
    [
        ("QuickStart", "QuickStart", [broadcast]),
        ("Demo", "Demo", [broadcast, bridge, testing]),
        ("ClientScenario", "Scenario", [broadcast, bridge]),
    ].map { name, folder, dependencies in
        Target.executableTarget(
            name: name + configuration.rawValue,
            dependencies: dependencies,
            path: "Clients/\(configuration.rawValue)/\(folder)",
            swiftSettings: configuration.settings
        )
    }
}

let package = Package(
    name: "BroadcastIntegrationChecks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "HostScenario", dependencies: [broadcast, bridge]),
        .executableTarget(name: "BroadcastHost", dependencies: [broadcast, "HostScenario"]),
        .executableTarget(name: "BroadcastAsyncHost", dependencies: [broadcast, "HostScenario"]),
    ] + clientTargets,
    swiftLanguageModes: [.v6]
)

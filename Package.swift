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
    ],
    targets: [
        .target(name: "Broadcast"),
        .target(name: "BroadcastSystemBridge", dependencies: ["Broadcast"]),
        .target(name: "BroadcastTesting", dependencies: ["Broadcast"]),
        .executableTarget(
            name: "BroadcastDemo", dependencies: ["Broadcast", "BroadcastSystemBridge", "BroadcastTesting"]),
        // The README's quick start, as written, in a top-level main.swift.
        .executableTarget(name: "QuickStart", dependencies: ["Broadcast"]),
        .testTarget(name: "BroadcastTests", dependencies: ["Broadcast", "BroadcastTesting"]),
        .testTarget(name: "BroadcastSystemBridgeTests", dependencies: ["Broadcast", "BroadcastSystemBridge"]),
        .testTarget(name: "BroadcastTestingTests", dependencies: ["Broadcast", "BroadcastTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

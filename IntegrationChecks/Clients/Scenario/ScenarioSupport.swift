import Dispatch
import Foundation
import Synchronization

// What the scenario needs to observe itself. Marked `nonisolated` because it
// is called from every thread the scenario uses, in every configuration.

/// The configuration this copy of the scenario was compiled in (set by the
/// integration package's `swiftSettings`).
nonisolated enum ClientConfiguration: String, Sendable {
    case swift6 = "Swift 6 defaults"
    case appDefaults = "app target defaults (MainActor default isolation, approachable concurrency)"
    case swift5 = "Swift 5 mode"

    static var current: ClientConfiguration {
        #if CLIENT_CONFIGURATION_APPDEFAULTS
            .appDefaults
        #elseif CLIENT_CONFIGURATION_SWIFT5
            .swift5
        #else
            .swift6
        #endif
    }

    /// Whether a class with no annotation is main-actor isolated here.
    var makesPlainClassesMainActor: Bool { self == .appDefaults }
}

/// Every listener call, in the order made, with where it ran.
nonisolated final class CallLog: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ call: String) {
        let place = MainQueue.isCurrent ? "main queue" : "background thread"
        entries.withLock { $0.append("\(call) (\(place))") }
    }

    var calls: [String] { entries.withLock { $0 } }

    func reset() { entries.withLock { $0.removeAll() } }
}

/// Whether code runs on the main queue.
///
/// `Thread.isMainThread` is not enough on Linux, where main-actor jobs can
/// run on the main queue from another thread; a queue-specific tag is.
nonisolated enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// Runs a body on a new thread and waits for its result.
nonisolated enum BackgroundThread {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        _ = MainQueue.isCurrent  // tag the main queue before another thread asks
        let result = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}

/// The scenario's checks: each failure is printed; `finish` reports.
nonisolated final class ScenarioChecks: Sendable {
    let configuration: ClientConfiguration
    private let results = Mutex<(passed: Int, failures: [String])>((0, []))

    init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    func expect(_ condition: Bool, _ what: String) {
        results.withLock { results in
            if condition { results.passed += 1 } else { results.failures.append(what) }
        }
        if !condition { print("FAILED: \(what)") }
    }

    /// Prints the summary and returns the exit status.
    func finish() -> Int32 {
        let (passed, failures) = results.withLock { $0 }
        print("client scenario, \(configuration.rawValue): \(passed) passed, \(failures.count) failed")
        return failures.isEmpty ? 0 : 1
    }
}

/// Hands the scenario's listeners to a background thread, which only asks
/// `deliveryExplanation` about them.
///
/// `@unchecked Sendable`: the value is read on the other thread only as an
/// identity for `deliveryExplanation(for:to:)`, which never calls it.
nonisolated struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

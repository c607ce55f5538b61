import Dispatch
import Foundation
import HostScenario

/// The steps of the hosts whose main context is a main-queue block, and the
/// waiting every synchronous host needs.
enum HostRun {
    /// Broadcasts per measured loop (`BROADCAST_HOST_BROADCASTS`, default 20,000).
    static let broadcasts = ProcessInfo.processInfo.environment["BROADCAST_HOST_BROADCASTS"].flatMap(Int.init) ?? 20_000

    /// How long the main actor may take to run what was scheduled on it.
    static let drainLimit = Duration.seconds(60)

    /// The scenario as main-queue blocks, one handler after another, the way
    /// a run loop or `dispatchMain()` calls an app's event handlers.
    ///
    /// The first handlers make one broadcast each; then one handler makes a
    /// long loop of broadcasts (where scheduled calls would pile up if any
    /// were scheduled per broadcast), and, once the main actor has run what
    /// was scheduled, another handler repeats the loop, which must leave
    /// memory flat.
    static func handlers(_ scenario: HostScenario, settlesLater: Bool) {
        // Where the main context cannot check the screen's isolated
        // conformance, every broadcast schedules its call on the main actor,
        // and the calls of a loop inside one handler wait until the handler
        // returns: the first loop's growth is reported, not judged (it is the
        // memory of the pending calls); the second loop reuses that memory
        // and must stay flat.
        let firstLoopLimit = settlesLater ? nil : HostScenario.flatMemoryLimit
        oneBroadcastPerHandler(scenario, remaining: 1_000, settlesLater: settlesLater) {
            scenario.broadcastLoop(
                count: broadcasts, label: "first loop", limit: firstLoopLimit, settlesLater: settlesLater)
            whenDelivered(scenario) {
                scenario.broadcastLoop(
                    count: broadcasts, label: "second loop", limit: HostScenario.flatMemoryLimit,
                    settlesLater: settlesLater)
                // A main-actor handler, as UIKit calls one: the late listener
                // registers from main-actor code.
                MainActor.assumeIsolated { scenario.checkMainContext() }
                whenDelivered(scenario) {
                    scenario.broadcastFromBackgroundThread(count: 1_000)
                    whenDelivered(scenario) { exit(scenario.finish()) }
                }
            }
        }
    }

    private static func oneBroadcastPerHandler(
        _ scenario: HostScenario, remaining: Int, settlesLater: Bool, then next: @escaping @Sendable () -> Void
    ) {
        scenario.broadcast(count: 1, settlesLater: settlesLater)
        guard remaining > 1 else {
            DispatchQueue.main.async(execute: next)
            return
        }
        DispatchQueue.main.async {
            oneBroadcastPerHandler(scenario, remaining: remaining - 1, settlesLater: settlesLater, then: next)
        }
    }

    /// Yields the main queue (so the main actor runs what was scheduled on
    /// it) until the scenario's deliveries have arrived, then runs `next` in
    /// a new handler; past the limit, exits with the verdict so far.
    private static func whenDelivered(
        _ scenario: HostScenario, deadline: ContinuousClock.Instant = .now + drainLimit,
        _ next: @escaping @Sendable () -> Void
    ) {
        if scenario.allDeliveriesArrived {
            DispatchQueue.main.async(execute: next)
        } else if ContinuousClock.now > deadline {
            print("host: scheduled deliveries did not arrive within \(drainLimit)")
            exit(scenario.finish())
        } else {
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(1)) {
                whenDelivered(scenario, deadline: deadline, next)
            }
        }
    }

    /// Runs the main run loop (which services the main queue, and so the
    /// main actor) until `done` or the limit.
    static func runRunLoop(until done: () -> Bool) {
        let deadline = ContinuousClock.now + drainLimit
        while !done() && ContinuousClock.now < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
    }
}

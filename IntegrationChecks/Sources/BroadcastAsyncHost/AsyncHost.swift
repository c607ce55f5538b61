import Broadcast
import Foundation
import HostScenario

/// A host for Broadcast's scenario in an async `main`.
///
/// The main context is a task on the main actor, where every isolated
/// conformance can be checked, and `waitForScheduledDeliveries()` is the
/// barrier. Exits non-zero if a check fails.
@main
struct AsyncHost {
    static func main() async {
        HostProbe.tagMainQueue()
        let scenario = HostScenario(
            host: .init(name: "async-main", runsOnMainThread: false, canCheckIsolatedConformances: true))
        scenario.register()
        scenario.broadcast(count: 1_000)
        scenario.broadcastLoop(count: broadcasts, label: "first loop", limit: HostScenario.flatMemoryLimit)
        scenario.broadcastLoop(count: broadcasts, label: "second loop", limit: HostScenario.flatMemoryLimit)
        scenario.checkMainContext()
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                scenario.broadcastHere(count: 1_000)
                finished.resume()
            }
        }
        await scenario.broadcaster.waitForScheduledDeliveries()
        let status = scenario.finish()

        // Awaited broadcasts: from this main-actor task, then from a task
        // with no actor.
        let awaited = Broadcaster()
        let listeners = AwaitedHostListeners(registeringOn: awaited)
        var failures = await AwaitedHostSteps.fromMainActor(awaited, listeners)
        failures += await Task.detached { await AwaitedHostSteps.fromTaskWithNoActor(awaited, listeners) }.value
        let awaitedPassed = AwaitedHostSteps.report(failures, host: "async-main")
        exit(awaitedPassed ? status : 1)
    }

    static let broadcasts = ProcessInfo.processInfo.environment["BROADCAST_HOST_BROADCASTS"].flatMap(Int.init) ?? 20_000
}

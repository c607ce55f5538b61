// A host for Broadcast's scenario outside any task, where apps and programs
// broadcast from: `BroadcastHost top-level | run-loop | dispatch-main`.
// Top-level statements here are main-actor code that runs on the main thread,
// outside any task; there is deliberately no `await` in this file (one would
// turn the whole of it into an async main). Exits non-zero if a check fails.
import Broadcast
import Dispatch
import Foundation
import HostScenario

HostProbe.tagMainQueue()
let mode = CommandLine.arguments.dropFirst().first ?? "top-level"

switch mode {
case "top-level":
    // Everything below runs synchronously on the main thread.
    let scenario = HostScenario(
        host: .init(name: "top-level", runsOnMainThread: true, canCheckIsolatedConformances: true))
    scenario.register()
    scenario.broadcast(count: 1_000)
    scenario.broadcastLoop(count: HostRun.broadcasts, label: "first loop", limit: HostScenario.flatMemoryLimit)
    scenario.broadcastLoop(count: HostRun.broadcasts, label: "second loop", limit: HostScenario.flatMemoryLimit)
    scenario.checkMainContext()
    scenario.broadcastFromBackgroundThread(count: 1_000)
    // The screen's calls from the background thread wait for the main actor,
    // which runs when the main thread runs its run loop.
    HostRun.runRunLoop(until: { scenario.allDeliveriesArrived })
    let status = scenario.finish()
    // Awaited broadcasts from a task started here: this code cannot `await`,
    // so it runs the run loop (which lets the main actor run) until the task
    // is done.
    let awaited = Broadcaster()
    let awaitedListeners = AwaitedHostListeners(registeringOn: awaited)
    let awaitedRun = AwaitedHostRun()
    awaitedRun.start(awaited, awaitedListeners)
    HostRun.runRunLoop(until: { awaitedRun.isFinished })
    let awaitedPassed =
        awaitedRun.isFinished
        ? AwaitedHostSteps.report(awaitedRun.failures, host: "top-level (a task started in top-level code)")
        : AwaitedHostSteps.report(["the task did not finish in time"], host: "top-level")
    exit(awaitedPassed ? status : 1)

case "run-loop":
    // How UIKit and AppKit run: the main thread runs the run loop and calls
    // main-actor handlers from main-queue blocks.
    let scenario = HostScenario(
        host: .init(name: "run-loop", runsOnMainThread: true, canCheckIsolatedConformances: true))
    scenario.register()
    DispatchQueue.main.async { HostRun.handlers(scenario, settlesLater: false) }
    RunLoop.main.run()

case "dispatch-main":
    // How a Linux program without a run loop runs: after `dispatchMain()`,
    // main-queue blocks run on a worker thread, where the runtime cannot
    // check a main-actor-isolated conformance.
    let scenario = HostScenario(
        host: .init(name: "dispatch-main", runsOnMainThread: false, canCheckIsolatedConformances: false))
    scenario.register()
    DispatchQueue.main.async { HostRun.handlers(scenario, settlesLater: true) }
    dispatchMain()

default:
    print("usage: BroadcastHost top-level | run-loop | dispatch-main")
    exit(2)
}

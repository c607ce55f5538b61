// Awaited broadcasts (`broadcast(awaitingEach:)`, awaited handlers) in real
// processes: from an async `main` (`BroadcastAsyncHost`) and from a task
// started in synchronous top-level code (`BroadcastHost top-level`), each on a
// broadcaster of its own, since the steps count exactly. Each step returns
// the failures it saw (empty: passed); `AwaitedHostSteps.report` prints them.

import Broadcast
import Dispatch
import Foundation
import Synchronization

/// The asynchronous listener protocol of the steps.
nonisolated protocol AwaitedHostSessionListener: AnyObject {
    func userSignedOut() async
}

/// Where code runs, by a tag on the main queue (`Thread.isMainThread` is not
/// reliable in main-actor code on Linux after `dispatchMain()` or in an async
/// main).
enum AwaitedHostPlace {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Tags the main queue; call once from the main thread before the steps.
    static func tagMainQueue() { _ = key }

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) != nil }
}

/// An ordered, thread-safe log of what the listeners did.
final class AwaitedHostLog: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    /// Returns the entries and empties the log.
    func take() -> [String] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }
}

/// A store with no actor whose sign-out suspends before it is done.
final class AwaitedHostStore: AwaitedHostSessionListener, Sendable {
    let name: String
    let log: AwaitedHostLog

    init(_ name: String, log: AwaitedHostLog) {
        self.name = name
        self.log = log
    }

    func userSignedOut() async {
        await Task.yield()
        log.record("\(name) cleared")
    }
}

/// A main-actor screen with an isolated conformance, registered from its
/// main-actor initializer.
@MainActor final class AwaitedHostScreen {
    let log: AwaitedHostLog

    init(log: AwaitedHostLog, broadcaster: Broadcaster) {
        self.log = log
        broadcaster.addListener(self)
    }
}

extension AwaitedHostScreen: @MainActor AwaitedHostSessionListener {
    @MainActor func userSignedOut() async {
        MainActor.assertIsolated()
        log.record(AwaitedHostPlace.isOnMainQueue ? "screen on main queue" : "screen OFF the main queue")
    }
}

/// The listeners of the steps, registered in order.
///
/// A store, the screen, another store (the stores from code with no actor),
/// and one awaited handler from main-actor code. Keep it alive while the
/// steps run.
public final class AwaitedHostListeners: Sendable {
    let log: AwaitedHostLog
    let first: AwaitedHostStore
    let screen: AwaitedHostScreen
    let second: AwaitedHostStore
    let handler: BroadcastToken

    /// The registrations' order, as the log shows a sequential sign-out.
    static let signOutOrder = ["first cleared", "screen on main queue", "second cleared"]

    /// Registers the listeners on `broadcaster`, in the order above.
    @MainActor public init(registeringOn broadcaster: Broadcaster) {
        AwaitedHostPlace.tagMainQueue()
        let log = AwaitedHostLog()
        self.log = log
        first = AwaitedHostStore("first", log: log)
        second = AwaitedHostStore("second", log: log)
        Self.registerWithNoActor(first, on: broadcaster)
        screen = AwaitedHostScreen(log: log, broadcaster: broadcaster)
        Self.registerWithNoActor(second, on: broadcaster)
        handler = broadcaster.addAwaitedHandler(for: AwaitedHostSignedOut.self, calledOn: MainActor.shared) { _ in
            log.record(AwaitedHostPlace.isOnMainQueue ? "handler on main queue" : "handler OFF the main queue")
        }
    }

    /// Registers `store` as code with no actor would (the `isolation:`
    /// argument is what `#isolation` passes there).
    private static func registerWithNoActor(_ store: AwaitedHostStore, on broadcaster: Broadcaster) {
        broadcaster.addListener(store, isolation: nil)
    }
}

/// The event value of the awaited-handler step.
struct AwaitedHostSignedOut: Sendable {}

/// The steps; each returns its failures.
public enum AwaitedHostSteps {
    /// Prints the awaited steps' outcome for `host`; returns whether they
    /// passed.
    public static func report(_ failures: [String], host: String) -> Bool {
        print("awaited broadcasts, \(host):")
        for failure in failures { print("  FAILED: " + failure) }
        print("awaited broadcasts, \(host): \(failures.isEmpty ? "passed" : "FAILED (\(failures.count) checks)")")
        return failures.isEmpty
    }

    /// From the main actor (an async main's task, or a task started from
    /// top-level code): sequential, concurrent, awaited handler.
    @MainActor public static func fromMainActor(_ broadcaster: Broadcaster, _ listeners: AwaitedHostListeners) async
        -> [String]
    {
        await common(broadcaster, listeners, from: "main actor")
    }

    /// From a task with no actor (`Task.detached`): the screen is still
    /// called on the main actor; plus cancellation.
    public static func fromTaskWithNoActor(_ broadcaster: Broadcaster, _ listeners: AwaitedHostListeners) async
        -> [String]
    {
        var failures = await common(broadcaster, listeners, from: "task with no actor")
        let made = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await broadcaster.broadcast(awaitingEach: AwaitedHostSessionListener.self) {
                await $0.userSignedOut()
            }
        }.value
        let log = listeners.log.take()
        if made != 0 || !log.isEmpty {
            failures.append("awaited (cancelled task): called \(made) listeners, log \(log); expected none")
        }
        return failures
    }

    /// The checks both places share, run where the caller runs
    /// (`nonisolated(nonsending)`: from the main actor, on the main actor).
    nonisolated(nonsending) private static func common(
        _ broadcaster: Broadcaster, _ listeners: AwaitedHostListeners, from place: String
    ) async -> [String] {
        var failures: [String] = []
        _ = listeners.log.take()

        let made = await broadcaster.broadcast(awaitingEach: AwaitedHostSessionListener.self) {
            await $0.userSignedOut()
        }
        let log = listeners.log.take()
        if made != 3 { failures.append("awaited sequential (\(place)): returned \(made), expected 3") }
        if log != AwaitedHostListeners.signOutOrder {
            failures.append("awaited sequential (\(place)): log \(log), expected \(AwaitedHostListeners.signOutOrder)")
        }

        let madeConcurrently = await broadcaster.broadcast(
            awaitingEach: AwaitedHostSessionListener.self, order: .concurrent
        ) { await $0.userSignedOut() }
        let concurrentLog = listeners.log.take()
        if madeConcurrently != 3 || Set(concurrentLog) != Set(AwaitedHostListeners.signOutOrder) {
            failures.append(
                "awaited concurrent (\(place)): returned \(madeConcurrently), log \(concurrentLog); expected 3, each once"
            )
        }

        let handled = await broadcaster.post(awaitingEach: AwaitedHostSignedOut())
        let handlerLog = listeners.log.take()
        if handled != 1 || handlerLog != ["handler on main queue"] {
            failures.append(
                "awaited handler (\(place)): returned \(handled), log \(handlerLog); expected 1 on the main queue")
        }
        return failures
    }
}

/// Runs the steps from a task started in synchronous top-level code, which
/// has no `await`: start it, run the main run loop until ``isFinished``,
/// then read ``failures``.
public final class AwaitedHostRun: Sendable {
    private let state = Mutex<(finished: Bool, failures: [String])>((false, []))

    /// Creates a run that has not started.
    public init() {}

    /// Whether the steps have finished.
    public var isFinished: Bool { state.withLock { $0.finished } }
    /// What the steps found wrong, once finished.
    public var failures: [String] { state.withLock { $0.failures } }

    /// Starts the steps in a task on the main actor.
    @MainActor public func start(_ broadcaster: Broadcaster, _ listeners: AwaitedHostListeners) {
        Task { @MainActor in
            var failures = await AwaitedHostSteps.fromMainActor(broadcaster, listeners)
            failures += await Task.detached {
                await AwaitedHostSteps.fromTaskWithNoActor(broadcaster, listeners)
            }.value
            self.state.withLock { $0 = (true, failures) }
        }
    }
}

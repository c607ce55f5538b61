import Broadcast
import Foundation

// Spies and signals for the awaited-broadcast suites. Spies record into an
// `EventLog`; tests assert on the log after the broadcast returns.

/// A protocol whose requirement is asynchronous.
protocol SessionListener: AnyObject {
    func userSignedOut() async
}

/// A protocol whose asynchronous requirement throws.
protocol CacheFlushing: AnyObject {
    func flush() async throws(FlushError)
}

/// The error a ``FlushSpy`` throws.
struct FlushError: Error, Equatable {
    let name: String
}

/// A second protocol, for broadcasts nested inside a listener.
protocol AuditListener: AnyObject {
    func audit(_ note: String) async
}

/// A non-isolated session listener: records `"<name>:start"`, runs its
/// action (which may suspend, add, remove or broadcast), then records
/// `"<name>:end"`.
final class SessionSpy: SessionListener, Sendable {
    let name: String
    let log: EventLog
    private let action: (@Sendable () async -> Void)?

    init(_ name: String, log: EventLog, action: (@Sendable () async -> Void)? = nil) {
        self.name = name
        self.log = log
        self.action = action
    }

    func userSignedOut() async {
        log.record("\(name):start")
        await action?()
        log.record("\(name):end")
    }
}

/// A flushing listener that throws when told to, after recording its call.
final class FlushSpy: CacheFlushing, Sendable {
    let name: String
    let log: EventLog
    private let fails: Bool
    private let action: (@Sendable () async -> Void)?

    init(_ name: String, log: EventLog, fails: Bool = false, action: (@Sendable () async -> Void)? = nil) {
        self.name = name
        self.log = log
        self.fails = fails
        self.action = action
    }

    func flush() async throws(FlushError) {
        log.record("\(name):flush")
        await action?()
        if fails { throw FlushError(name: name) }
    }
}

/// Records every audit note.
final class AuditSpy: AuditListener, Sendable {
    let log: EventLog

    init(log: EventLog) { self.log = log }

    func audit(_ note: String) async {
        log.record("audit:\(note)")
    }
}

/// A one-shot signal one task waits for and another gives, without sleeps.
///
/// Waiting ignores cancellation: the tests cancel tasks that wait here and
/// check what they do next.
final class Signal: Sendable {
    private struct State {
        var isFired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Gives the signal: waiting tasks, and later ones, go on.
    func fire() {
        let waiters = state.withLock { state in
            state.isFired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``fire()`` has been called, or once the waiting task is
    /// cancelled: for waits that only a broken broadcast would make endless,
    /// so that the test's time limit ends them.
    func waitUnlessCancelled() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock the handler drains under, so a
                // cancellation either finds this waiter or is seen here.
                let resumeNow = state.withLock { state in
                    if state.isFired || Task.isCancelled { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once ``fire()`` has been called, even if the waiting task is
    /// cancelled.
    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state in
                if !state.isFired { state.waiters.append(continuation) }
                return state.isFired
            }
            if fired { continuation.resume() }
        }
    }
}

/// A global actor other than the main actor, for listeners isolated to it.
@globalActor actor CacheActor {
    static let shared = CacheActor()
}

/// A main-actor screen with an isolated conformance to the asynchronous
/// protocol, registered from its main-actor initializer.
@MainActor final class SignOutScreen {
    let log: EventLog

    init(broadcaster: Broadcaster, log: EventLog) {
        self.log = log
        broadcaster.addListener(self)
    }
}

extension SignOutScreen: @MainActor SessionListener {
    func userSignedOut() async {
        MainActor.assertIsolated()
        log.record("screen:\(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")")
    }
}

/// A listener with no actor whose conformance is isolated to the main actor:
/// a `SessionListener` on the main actor only.
final class MainActorConformingGauge: Sendable {
    let log: EventLog

    init(log: EventLog) { self.log = log }
}

extension MainActorConformingGauge: @MainActor SessionListener {
    @MainActor func userSignedOut() async {
        log.record("gauge:\(MainQueueTag.isOnMainQueue ? "main queue" : "elsewhere")")
    }
}

/// A main-actor object registered from main-actor code that does not
/// conform to `SessionListener`.
@MainActor final class SignOutBystander {
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
}

/// A cache isolated to ``CacheActor`` with an isolated conformance,
/// registered from that actor.
@CacheActor final class ActorCache {
    let log: EventLog

    init(log: EventLog) { self.log = log }

    func register(with broadcaster: Broadcaster) {
        broadcaster.addListener(self)
    }
}

extension ActorCache: @CacheActor SessionListener {
    func userSignedOut() async {
        CacheActor.shared.assertIsolated()
        log.record("cache:cleared")
    }
}

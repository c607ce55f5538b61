import Broadcast
import Testing

// Support for the re-entry suites: places where user code runs, calls made
// back into the broadcaster from there, and a world whose spies show whether
// each call took effect. Every listener here is `Sendable` (its mutable state
// in a `Locked`, which ThreadSanitizer sees) or `@MainActor` (registered
// from main-actor code).

/// A thread-safe, append-only record of what a test observed, in order.
final class ReentryLog: Sendable {
    private let entries = Locked<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }

    func count(of entry: String) -> Int { entries.withLock { $0.count { $0 == entry } } }

    func contains(_ entry: String) -> Bool { count(of: entry) > 0 }
}

/// A thread-safe list of values, in the order they were appended.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }

    var all: [Value] { values.withLock { $0 } }
}

/// What the world's spies listen to.
protocol ReentryPing: AnyObject { func ping(_ n: Int) }

/// A state kept sticky by the world, replayed to late spies.
protocol ReentryMark: AnyObject { func mark(_ value: Int) }

/// What a test broadcasts to reach the user code under test.
protocol ReentryKick: AnyObject { func kick() }

/// The awaited form of ``ReentryKick``.
protocol ReentryAwaitedKick: AnyObject { func kick() async }

/// Carries a payload in a sticky broadcast.
protocol ReentryCarrier: AnyObject { func carry(_ payload: DeinitAction) }

/// An event value the world's spies receive.
struct ReentryNote: Sendable, Equatable { let text: String }

/// An event value the world keeps sticky.
struct ReentryLevel: Sendable, Equatable { let value: Int }

/// An event value a test posts to reach the handler under test.
struct ReentryKickEvent: Sendable {}

/// An event value that holds an object, kept sticky by a test.
struct ReentryParcel: Sendable { let content: DeinitAction }

/// A spy that records every call as `"<name>.<method>(<value>)"`.
final class ReentrySpy: ReentryPing, ReentryMark, EventListener, Sendable {
    let name: String
    let log: ReentryLog

    init(_ name: String, log: ReentryLog) {
        self.name = name
        self.log = log
    }

    func ping(_ n: Int) { log.record("\(name).ping(\(n))") }
    func mark(_ value: Int) { log.record("\(name).mark(\(value))") }
    func receive(_ event: ReentryNote) { log.record("\(name).note(\(event.text))") }
}

/// A main-actor spy, registered from main-actor code so that broadcasts from
/// elsewhere are scheduled on the main actor's mailbox.
@MainActor final class MainReentrySpy {
    let log: ReentryLog

    init(log: ReentryLog) { self.log = log }
}

extension MainReentrySpy: @MainActor ReentryPing {
    func ping(_ n: Int) { log.record("main.ping(\(n))") }
}

/// A listener that runs its action when kicked.
final class Kicker: ReentryKick, Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func kick() { action() }
}

/// A main-actor listener that runs its action when kicked, registered from
/// main-actor code: a kick from elsewhere reaches it through the main actor's
/// mailbox.
@MainActor final class MainKicker {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
}

extension MainKicker: @MainActor ReentryKick {
    func kick() { action() }
}

/// A listener whose awaited call runs its action.
final class AwaitedKicker: ReentryAwaitedKick, Sendable {
    private let action: @Sendable () async -> Void

    init(_ action: @escaping @Sendable () async -> Void) { self.action = action }

    func kick() async { await action() }
}

/// An object that runs its action when it is deallocated: a listener, a
/// sticky payload, a value captured by a handler.
final class DeinitAction: ReentryKick, Sendable {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void = {}) { self.action = action }

    func kick() {}

    deinit { action() }
}

/// An object that owns the token of a handler registered with it as the
/// `owner:`, and runs its action when it is deallocated (before the token
/// goes with it).
final class HandlerOwner: Sendable {
    private let token = Locked<BroadcastToken?>(nil)
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func keep(_ token: BroadcastToken) { self.token.withLock { $0 = token } }

    deinit { action() }
}

/// A listener that owns the registrations it listens through, and runs its
/// action when it is deallocated (before its registrations go with it).
final class RegisteredOwner: ReentryPing, Sendable {
    private let registrations: ListenerRegistrations
    private let log: ReentryLog
    private let action: @Sendable () -> Void

    init(broadcaster: Broadcaster, log: ReentryLog, _ action: @escaping @Sendable () -> Void) {
        registrations = ListenerRegistrations(broadcaster: broadcaster)
        self.log = log
        self.action = action
        registrations.add(self, for: ReentryPing.self)
    }

    func ping(_ n: Int) { log.record("owned.ping(\(n))") }

    deinit { action() }
}

/// A call that user code makes back into the broadcaster.
///
/// `waitForScheduledDeliveries` is `async`: it can be made from an awaited
/// listener or handler only. Listener methods, handler closures and
/// deinitializers are synchronous, so it is meaningless there and left out
/// of ``synchronous``.
enum ReentryCall: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case addListener
    case removeListener
    case broadcast
    case post
    case setSticky
    case clearSticky
    case postSticky
    case clearStickyEvent
    case addHandler
    case cancelToken
    case startRegistration
    case stopRegistration
    case startLifespan
    case stopLifespan
    case waitForScheduledDeliveries

    /// The calls synchronous code can make.
    static let synchronous = allCases.filter { $0 != .waitForScheduledDeliveries }

    var testDescription: String { rawValue }
}

/// How a test releases a sticky broadcast (or sticky event) that holds the
/// last reference to an object.
enum StickyRelease: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// A newer sticky broadcast (or sticky post) replaces it.
    case replacedBySticky
    /// `setStickyBroadcast` (or `setStickyEvent`) replaces it.
    case replacedBySet
    /// `clearStickyBroadcast(for:)` (or `clearStickyEvent(for:)`) forgets it.
    case cleared
    /// `clearAllStickyBroadcasts()` forgets it, with every other.
    case clearedAll

    var testDescription: String { rawValue }
}

/// How a test releases a handler's closure, and what it captured.
enum HandlerRelease: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `token.cancel()`.
    case tokenCancelled
    /// The last reference to the token goes.
    case tokenReleased
    /// The `ListenerRegistrations` that holds the handler goes.
    case registrationsReleased

    var testDescription: String { rawValue }
}

/// A broadcaster with spies for every call a test may make back into it.
///
/// ``perform(_:)`` makes the call; ``verifyRound(after:stickyStateCleared:sourceLocation:)``
/// then broadcasts, posts and registers a late listener, and checks that the
/// call took effect as documented — and that every other call did not.
final class ReentryWorld: Sendable {
    let broadcaster: Broadcaster
    let log: ReentryLog
    /// Registered throughout: receives everything.
    private let observer: ReentrySpy
    /// Not registered until `addListener`.
    private let newcomer: ReentrySpy
    /// Registered until `removeListener`.
    private let victim: ReentrySpy
    /// Listens through `startable` once started.
    private let starter: ReentrySpy
    /// Listens through `stoppable` until stopped.
    private let stopper: ReentrySpy
    private let startable: ListenerRegistration
    private let stoppable: ListenerRegistration
    /// Listens through `lifespans`' `.visible` registrations once started.
    private let shown: ReentrySpy
    /// Listens through `lifespans`' `.custom("shown")` registrations until stopped.
    private let hidden: ReentrySpy
    private let lifespans: ListenerRegistrations
    /// A handler of notes, until `cancelToken`.
    private let cancellable: Locked<BroadcastToken?>
    /// The handler `addHandler` adds.
    private let added = Locked<BroadcastToken?>(nil)
    private let mainSpy = Locked<MainReentrySpy?>(nil)

    init() {
        let broadcaster = Broadcaster()
        let log = ReentryLog()
        self.broadcaster = broadcaster
        self.log = log
        observer = ReentrySpy("observer", log: log)
        newcomer = ReentrySpy("newcomer", log: log)
        victim = ReentrySpy("victim", log: log)
        starter = ReentrySpy("starter", log: log)
        stopper = ReentrySpy("stopper", log: log)
        startable = ListenerRegistration(starter, for: ReentryPing.self, on: broadcaster)
        stoppable = ListenerRegistration(stopper, for: ReentryPing.self, on: broadcaster)
        shown = ReentrySpy("shown", log: log)
        hidden = ReentrySpy("hidden", log: log)
        lifespans = ListenerRegistrations(broadcaster: broadcaster)
        lifespans.add(shown, for: ReentryPing.self, lifespan: .visible)
        lifespans.add(hidden, for: ReentryPing.self, lifespan: .custom("shown"))
        cancellable = Locked(
            broadcaster.addHandler(for: ReentryNote.self) { @Sendable note in
                log.record("cancellable.note(\(note.text))")
            })
        broadcaster.addListener(observer)
        broadcaster.addListener(victim)
        stoppable.start()
        lifespans.start(.custom("shown"))
        broadcaster.broadcast(to: ReentryMark.self, with: 1, sticky: true) { $0.mark($1) }
        broadcaster.post(ReentryLevel(value: 1), sticky: true)
    }

    /// Registers a main-actor spy, from main-actor code.
    @MainActor func addMainActorSpy() {
        let spy = MainReentrySpy(log: log)
        broadcaster.addListener(spy)
        mainSpy.withLock { $0 = spy }
    }

    /// Makes `call`, then records that it returned.
    func perform(_ call: ReentryCall) {
        switch call {
        case .addListener:
            broadcaster.addListener(newcomer)
        case .removeListener:
            broadcaster.removeListener(victim)
        case .broadcast:
            broadcaster.broadcast(to: ReentryPing.self) { $0.ping(100) }
        case .post:
            broadcaster.post(ReentryNote(text: "reentered"))
        case .setSticky:
            broadcaster.broadcast(to: ReentryMark.self, with: 7, sticky: true) { $0.mark($1) }
        case .clearSticky:
            broadcaster.clearStickyBroadcast(for: ReentryMark.self)
        case .postSticky:
            broadcaster.post(ReentryLevel(value: 7), sticky: true)
        case .clearStickyEvent:
            broadcaster.clearStickyEvent(for: ReentryLevel.self)
        case .addHandler:
            let log = self.log
            let token = broadcaster.addHandler(for: ReentryNote.self) { @Sendable note in
                log.record("added.note(\(note.text))")
            }
            added.withLock { $0 = token }
        case .cancelToken:
            let token = cancellable.withLock { $0 }
            token?.cancel()
        case .startRegistration:
            startable.start()
        case .stopRegistration:
            stoppable.stop()
        case .startLifespan:
            lifespans.start(.visible)
        case .stopLifespan:
            lifespans.stop(.custom("shown"))
        case .waitForScheduledDeliveries:
            Issue.record("waitForScheduledDeliveries is made from async code only (performAwaiting)")
        }
        log.record("performed.\(call.rawValue)")
    }

    /// Makes `call` from async code.
    ///
    /// `waitForScheduledDeliveries`: a
    /// broadcast from here schedules a call on the main-actor spy; the wait
    /// must return after it ran.
    func performAwaiting(_ call: ReentryCall) async {
        guard call == .waitForScheduledDeliveries else { return perform(call) }
        broadcaster.broadcast(to: ReentryPing.self) { $0.ping(300) }
        await broadcaster.waitForScheduledDeliveries()
        log.record("waited.mainSaw300=\(log.contains("main.ping(300)"))")
        log.record("performed.\(call.rawValue)")
    }

    /// Broadcasts, posts and replays the sticky state to a late listener,
    /// then checks that `call` (made once, from the place under test) took
    /// effect and that the other calls did not.
    ///
    /// - Parameters:
    ///   - call: The call made from the place under test.
    ///   - stickyStateCleared: Whether the test itself forgot every sticky
    ///     broadcast and event (`clearAllStickyBroadcasts()`) before the
    ///     call.
    ///   - sourceLocation: Where failures are reported.
    func verifyRound(
        after call: ReentryCall, stickyStateCleared: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            log.count(of: "performed.\(call.rawValue)") == 1, "the call was made once and returned",
            sourceLocation: sourceLocation)
        broadcaster.broadcast(to: ReentryPing.self) { $0.ping(200) }
        broadcaster.post(ReentryNote(text: "after"))
        let late = ReentrySpy("late", log: log)
        broadcaster.addListener(late, receivingSticky: true)
        broadcaster.removeListener(late)
        let log = self.log
        broadcaster.addHandler(for: ReentryLevel.self, receivingSticky: true) { @Sendable level in
            log.record("late.level(\(level.value))")
        }
        .cancel()

        // The broadcaster still works.
        #expect(log.count(of: "observer.ping(200)") == 1, sourceLocation: sourceLocation)
        #expect(log.count(of: "observer.note(after)") == 1, sourceLocation: sourceLocation)
        // Each call took effect, and only that one.
        #expect(log.contains("newcomer.ping(200)") == (call == .addListener), sourceLocation: sourceLocation)
        #expect(broadcaster.isRegistered(newcomer) == (call == .addListener), sourceLocation: sourceLocation)
        #expect(log.contains("victim.ping(200)") == (call != .removeListener), sourceLocation: sourceLocation)
        #expect(broadcaster.isRegistered(victim) == (call != .removeListener), sourceLocation: sourceLocation)
        #expect(
            log.count(of: "observer.ping(100)") == (call == .broadcast ? 1 : 0), "a broadcast made there arrived",
            sourceLocation: sourceLocation)
        #expect(
            log.count(of: "observer.note(reentered)") == (call == .post ? 1 : 0), "a post made there arrived",
            sourceLocation: sourceLocation)
        let expectedMarks: [String] =
            switch call {
            case .setSticky: ["late.mark(7)"]
            case .clearSticky: []
            default: stickyStateCleared ? [] : ["late.mark(1)"]
            }
        #expect(log.all.filter { $0.hasPrefix("late.mark") } == expectedMarks, sourceLocation: sourceLocation)
        #expect(
            broadcaster.hasStickyBroadcast(for: ReentryMark.self) == !expectedMarks.isEmpty,
            sourceLocation: sourceLocation)
        let expectedLevels: [String] =
            switch call {
            case .postSticky: ["late.level(7)"]
            case .clearStickyEvent: []
            default: stickyStateCleared ? [] : ["late.level(1)"]
            }
        #expect(log.all.filter { $0.hasPrefix("late.level") } == expectedLevels, sourceLocation: sourceLocation)
        #expect(
            broadcaster.stickyEvent(for: ReentryLevel.self).map { "late.level(\($0.value))" } == expectedLevels.first,
            sourceLocation: sourceLocation)
        #expect(log.contains("added.note(after)") == (call == .addHandler), sourceLocation: sourceLocation)
        #expect(log.contains("cancellable.note(after)") == (call != .cancelToken), sourceLocation: sourceLocation)
        #expect(log.contains("starter.ping(200)") == (call == .startRegistration), sourceLocation: sourceLocation)
        #expect(startable.isListening == (call == .startRegistration), sourceLocation: sourceLocation)
        #expect(log.contains("stopper.ping(200)") == (call != .stopRegistration), sourceLocation: sourceLocation)
        #expect(stoppable.isListening == (call != .stopRegistration), sourceLocation: sourceLocation)
        #expect(log.contains("shown.ping(200)") == (call == .startLifespan), sourceLocation: sourceLocation)
        #expect(log.contains("hidden.ping(200)") == (call != .stopLifespan), sourceLocation: sourceLocation)
        if call == .waitForScheduledDeliveries {
            #expect(
                log.contains("waited.mainSaw300=true"), "the wait returned after the scheduled call ran",
                sourceLocation: sourceLocation)
        }
    }
}

/// The value `body` returns, or nil, with an issue recorded, if it has not
/// returned within `seconds`.
///
/// A test that waits for a delivery then fails in seconds when the delivery
/// is lost. `body` must end when cancelled.
func finishing<T: Sendable>(
    within seconds: Int = 30, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> T
) async -> T? {
    let outcome = Locked<(continuation: CheckedContinuation<T?, Never>?, result: T??)>((nil, nil))
    let finish: @Sendable (T?) -> Void = { value in
        let continuation = outcome.withLock { outcome -> CheckedContinuation<T?, Never>? in
            guard outcome.result == nil else { return nil }
            outcome.result = .some(value)
            defer { outcome.continuation = nil }
            return outcome.continuation
        }
        continuation?.resume(returning: value)
    }
    // Unstructured, so that a body that never returns (a lost delivery, a
    // deadlock) does not keep the test waiting past its deadline.
    Task { finish(await body()) }
    Task {
        try? await Task.sleep(for: .seconds(seconds))
        finish(nil)
    }
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let early = outcome.withLock { outcome -> T?? in
            if let result = outcome.result { return result }
            outcome.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }
    if result == nil { Issue.record("not done within \(seconds) s", sourceLocation: sourceLocation) }
    return result
}

/// The first `count` values of `stream`, or fewer if it ends first.
func first<Value: Sendable>(_ count: Int, of stream: AsyncStream<Value>) async -> [Value] {
    var values: [Value] = []
    for await value in stream {
        values.append(value)
        if values.count == count { break }
    }
    return values
}

/// A payload carried to main-actor listeners.
protocol ReentryMainCarrier: AnyObject { func carry(_ payload: DeinitAction) }

/// A main-actor listener of payloads, registered from main-actor code.
@MainActor final class MainCarrierSpy {
    var carried = 0
}

extension MainCarrierSpy: @MainActor ReentryMainCarrier {
    func carry(_ payload: DeinitAction) { carried += 1 }
}

/// How a test keeps a main-actor sticky broadcast whose payload may hold
/// the last reference to an object.
enum MainActorStickyKeeping: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case broadcastOnMainActor
    case setStickyBroadcastOnMainActor

    var testDescription: String { rawValue }
}

/// How a delivery waiting in the main actor's mailbox came to hold a payload.
enum MailboxDelivery: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `broadcast(to:with:)` from no actor, to a main-actor listener.
    case broadcast
    /// `broadcastOnMainActor(to:with:)` from no actor.
    case broadcastOnMainActor

    var testDescription: String { rawValue }
}

/// How an index comes to let go of an entry it alone holds.
enum IndexRelease: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The table's layout changes, and the next broadcast rebuilds the index.
    case rebuild
    /// Enough members are removed for the index to filter them.
    case filter

    /// The listeners registered beside the one whose entry is let go of.
    var otherListeners: Int { self == .rebuild ? 3 : 1 }

    var testDescription: String { rawValue }
}

/// An actor that registers listeners from its own code and runs its action
/// when it is deallocated.
actor ReentryRegistrar {
    private let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    func register(_ listener: Kicker, on broadcaster: Broadcaster) {
        broadcaster.addListener(listener)
    }

    deinit { action() }
}

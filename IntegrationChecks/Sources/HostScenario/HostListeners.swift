import Broadcast
import BroadcastSystemBridge
import Dispatch
import Synchronization

/// The event every host broadcasts: a numbered post.
protocol PostListener: AnyObject {
    func postCreated(_ number: Int)
}

/// What the bystanders listen to instead; nothing in the scenario broadcasts
/// to it, so a call or a count for a bystander is a bug.
protocol BadgeListener: AnyObject {
    func badgeChanged(_ count: Int)
}

/// A state kept as a sticky broadcast, replayed to late listeners.
protocol SessionListener: AnyObject {
    func sessionChanged(signedIn: Bool)
}

/// What the meter listens to: a thread-safe listener a server registers in
/// its setup.
protocol MeterListener: AnyObject {
    func requestServed()
}

/// A `Sendable` listener with a conformance that is not isolated: registered
/// from the host's main-actor code, it must be called where a broadcast runs,
/// also on a background thread, before the broadcast returns.
final class Meter: MeterListener, Sendable {
    let served = Atomic<Int>(0)
    let servedOnMainThread = Atomic<Int>(0)
    func requestServed() {
        served.add(1, ordering: .relaxed)
        if HostProbe.isMainThread { servedOnMainThread.add(1, ordering: .relaxed) }
    }
}

extension Broadcaster {
    /// The scenario's typed broadcast, written as a user writes one: a
    /// non-isolated method, so the broadcast finds its context at run time.
    @discardableResult
    func postCreated(_ number: Int) -> Int {
        broadcast(to: PostListener.self) { $0.postCreated(number) }
    }
}

/// Records one listener's calls: how many, whether each came in order (every
/// number once, ascending), and where each ran.
final class DeliveryLog: Sendable {
    struct State {
        var next = 0
        var calls = 0
        var outOfOrder = 0
        var offMainQueue = 0
        var offMainThread = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Records the call for `number`, which must be the one after the
    /// previous call's (nil for events that carry no order).
    func record(_ number: Int?) {
        let onMainQueue = HostProbe.isOnMainQueue
        let onMainThread = HostProbe.isMainThread
        state.withLock { state in
            if let number {
                if number != state.next { state.outOfOrder += 1 }
                state.next = number + 1
            }
            state.calls += 1
            if !onMainQueue { state.offMainQueue += 1 }
            if !onMainThread { state.offMainThread += 1 }
        }
    }

    var calls: Int { state.withLock { $0.calls } }
    var outOfOrder: Int { state.withLock { $0.outOfOrder } }
    var offMainQueue: Int { state.withLock { $0.offMainQueue } }
    var offMainThread: Int { state.withLock { $0.offMainThread } }
}

/// A listener with no actor: registered from non-isolated code, called on
/// whatever thread broadcasts.
final class Feed: PostListener, Sendable {
    let log = DeliveryLog()
    init() {}
    func postCreated(_ number: Int) { log.record(number) }
}

/// UI code: a `@MainActor` class whose conformance is isolated to the main
/// actor, the case a generic cast can only check on the main actor.
@MainActor final class Screen {
    nonisolated let log = DeliveryLog()
    nonisolated let applicationLog = DeliveryLog()
    nonisolated init() {}
}

extension Screen: @MainActor PostListener {
    func postCreated(_ number: Int) { log.record(number) }
}

extension Screen: @MainActor ApplicationStateListener {
    func applicationDidEnterBackground() { applicationLog.record(nil) }
}

/// A gauge with no actor of its own whose conformance is isolated to the
/// main actor.
///
/// A `PostListener` only where the runtime can prove the main actor.
/// Registered from non-isolated code, it has no actor, so only the
/// conformance check keeps a background broadcast from calling it there.
final class MainActorGauge: Sendable {
    let log = DeliveryLog()
    init() {}
}

extension MainActorGauge: @MainActor PostListener {
    @MainActor func postCreated(_ number: Int) { log.record(nil) }
}

/// A posted event value, for ``MainActorEventGauge``.
struct HostEvent: Sendable {
    let number: Int
}

/// An `EventListener` with no actor of its own whose conformance is
/// isolated to the main actor: a post reaches it through the typed adapter
/// its first call on the main actor proved.
final class MainActorEventGauge: Sendable {
    let log = DeliveryLog()
    init() {}
}

extension MainActorEventGauge: @MainActor EventListener {
    @MainActor func receive(_ event: HostEvent) { log.record(event.number) }
}

/// A screen that appears late and asks for the sticky session state.
@MainActor final class SessionBanner {
    nonisolated let log = DeliveryLog()
    nonisolated init() {}
}

extension SessionBanner: @MainActor SessionListener {
    func sessionChanged(signedIn: Bool) { log.record(nil) }
}

/// A main-actor bystander with an isolated conformance to another protocol.
@MainActor final class Badge {
    nonisolated let log = DeliveryLog()
    nonisolated init() {}
}

extension Badge: @MainActor BadgeListener {
    func badgeChanged(_ count: Int) { log.record(count) }
}

/// A bystander with no actor of its own, conforming to another protocol.
final class Counter: BadgeListener, Sendable {
    let log = DeliveryLog()
    init() {}
    func badgeChanged(_ count: Int) { log.record(count) }
}

/// The same thread-safe meter, registered with the actor that calls it
/// named (`calledOn:`): it must run only there, whatever thread broadcasts,
/// although its conformance holds everywhere.
final class PinnedMeter: MeterListener, Sendable {
    let log = DeliveryLog()
    let offWorker = Atomic<Int>(0)
    /// Whether calls are expected on a ``HostWorker`` rather than on the main actor.
    let expectsWorker: Bool

    init(onWorker: Bool) { expectsWorker = onWorker }

    func requestServed() {
        log.record(nil)
        if expectsWorker, !HostWorker.isRunningOnAWorker { offWorker.add(1, ordering: .relaxed) }
    }
}

/// A worker actor with an executor of its own, a serial queue tagged so that
/// a listener can tell whether it runs there.
actor HostWorker {
    private let executor = TaggedExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether the calling code runs on some worker's queue.
    nonisolated static var isRunningOnAWorker: Bool {
        DispatchQueue.getSpecific(key: TaggedExecutor.tag.key) != nil
    }

    /// The executor: jobs run on one serial queue, in order.
    final class TaggedExecutor: SerialExecutor, Sendable {
        /// The queue-specific key, in a box because not every Dispatch
        /// overlay declares `DispatchSpecificKey` Sendable.
        final class Tag: @unchecked Sendable {
            // @unchecked Sendable: `key` is immutable and only passed to
            // Dispatch's thread-safe `setSpecific` / `getSpecific`.
            let key = DispatchSpecificKey<UInt8>()
        }

        static let tag = Tag()
        private let queue = DispatchQueue(label: "HostWorker")

        init() { queue.setSpecific(key: Self.tag.key, value: 1) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }
}

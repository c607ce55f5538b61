import Broadcast
import Foundation
import Synchronization

/// A broadcast made off the main actor to listeners that must run on it: what
/// the hop costs. `broadcastFromBackground` returns once every delivery has
/// run, so the time it takes covers the hop.
public protocol HopImplementation: AnyObject, Sendable {
    static var name: String { get }
    init()
    /// Registers `listener` from main-actor code (a `@MainActor` listener).
    @MainActor func add(_ listener: Listener)
    /// Broadcasts `times` times from the calling (background) task and returns
    /// when all deliveries have run on the main actor.
    func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async
}

/// `Broadcaster`: listeners registered on the main actor, broadcasts from a
/// background task are scheduled on the main actor's mailbox;
/// `waitForScheduledDeliveries()` is the barrier.
public final class BroadcasterHop: HopImplementation, @unchecked Sendable {
    public static let name = "Broadcaster"
    private let broadcaster = Broadcaster()
    public init() {}
    @MainActor public func add(_ listener: Listener) { broadcaster.addListener(listener) }
    public func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async {
        for _ in 0..<times { broadcaster.postCreated(post) }
        await broadcaster.waitForScheduledDeliveries()
    }
}

/// `Broadcaster`, each broadcast followed by the barrier,
/// `waitForScheduledDeliveries()` (a round trip each).
public final class BroadcasterBarrierEachHop: HopImplementation, @unchecked Sendable {
    public static let name = "Broadcaster + barrier each"
    private let broadcaster = Broadcaster()
    public init() {}
    @MainActor public func add(_ listener: Listener) { broadcaster.addListener(listener) }
    public func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async {
        for _ in 0..<times {
            broadcaster.postCreated(post)
            await broadcaster.waitForScheduledDeliveries()
        }
    }
}

/// Weak boxes typed at registration, hopping with one `Task { @MainActor }` per
/// broadcast: the hand-written floor.
public final class WeakTypedHop: HopImplementation, @unchecked Sendable {
    public static let name = "weak-typed + Task @MainActor"
    private let listeners = Locked<[WeakTyped.Box]>([])
    public init() {}
    @MainActor public func add(_ listener: Listener) { listeners.withLock { $0.append(WeakTyped.Box(listener: listener)) } }
    public func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async {
        for _ in 0..<times {
            let snapshot = listeners.withLock { $0 }
            let boxes = UncheckedBox(snapshot)
            Task { @MainActor in for box in boxes.value { box.listener?.postCreated(post) } }
        }
        await MainActor.run {}
    }
}

/// `NotificationCenter.MainActorMessage`, posted from the background with a
/// `Task { @MainActor }` per message (its `post` is main-actor isolated).
public final class MainActorMessageHop: HopImplementation, @unchecked Sendable {
    public static let name = "NC.MainActorMessage + Task @MainActor"
    private let center = NotificationCenter()
    public init() {}
    @MainActor public func add(_ listener: Listener) {
        listener.token = center.addObserver(of: nil as MessageSubject?, for: PostCreatedMainActorMessage.self) {
            [weak listener] message in
            listener?.postCreated(message.post)
        }
    }
    public func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async {
        let center = self.center
        for _ in 0..<times {
            Task { @MainActor in center.post(PostCreatedMainActorMessage(post: post)) }
        }
        await MainActor.run {}
    }
}

/// `NotificationCenter.AsyncMessage`: posted from the background, observers
/// are async closures that hop to the main actor. Unordered; the barrier
/// counts deliveries.
public final class AsyncMessageHop: HopImplementation, @unchecked Sendable {
    public static let name = "NC.AsyncMessage (async)"
    private let center = NotificationCenter()
    private let countdown = Countdown()
    public init() {}
    @MainActor public func add(_ listener: Listener) {
        let countdown = self.countdown
        listener.token = center.addObserver(of: nil as MessageSubject?, for: PostCreatedAsyncMessage.self) {
            [weak listener] message in
            await MainActor.run { listener?.postCreated(message.post) }
            countdown.arrive()
        }
    }
    public func broadcastFromBackground(_ post: Post, times: Int, listenerCount: Int) async {
        await countdown.run(expecting: times * listenerCount) {
            for _ in 0..<times { center.post(PostCreatedAsyncMessage(post: post)) }
        }
    }
}

public let allHopImplementations: [any HopImplementation.Type] = [
    WeakTypedHop.self, BroadcasterHop.self, BroadcasterBarrierEachHop.self, MainActorMessageHop.self, AsyncMessageHop.self,
]

/// Carries a non-Sendable snapshot into a main-actor task that is its only
/// user from then on.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Resumes a waiter once `arrive()` has been called the expected number of times.
final class Countdown: Sendable {
    private struct State {
        var remaining = 0
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    func run(expecting count: Int, _ body: () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { $0.remaining += count; $0.waiter = continuation }
            body()
        }
    }

    func arrive() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}

import Broadcast
import Foundation

/// Awaited asynchronous delivery: every listener's `async` method called and
/// awaited, the sender resuming once all have returned.

/// The asynchronous protocol broadcast to.
public protocol SessionListener: AnyObject {
    func userSignedOut() async
}

/// A listener with no actor. Its work is one add, so the benchmark measures
/// the delivery (and the await).
///
/// `@unchecked Sendable`: `received` is only a sink for the optimizer.
public final class SessionCounter: SessionListener, @unchecked Sendable {
    public var received = 0
    public var token: Any?
    public init() {}
    public func userSignedOut() async { received &+= 1 }
}

/// A main-actor listener with an isolated conformance, registered from
/// main-actor code.
@MainActor public final class MainActorSessionCounter {
    public var received = 0
    public var token: Any?
    public init() {}
}

extension MainActorSessionCounter: @MainActor SessionListener {
    public func userSignedOut() async { received &+= 1 }
}

/// One way to sign out N listeners and wait for all of them, measured from a
/// task with no actor.
public protocol AwaitedImplementation: AnyObject, Sendable {
    static var name: String { get }
    init()
    /// Registers a listener with no actor, from code with no actor.
    func add(_ listener: SessionCounter)
    /// Registers a main-actor listener from main-actor code.
    @MainActor func addOnMainActor(_ listener: MainActorSessionCounter)
    /// Signs out `times` times, each time returning once every listener's
    /// call has returned.
    func signOut(times: Int) async
}

/// `Broadcaster.broadcast(awaitingEach:)`, sequential.
public final class BroadcasterAwaited: AwaitedImplementation, @unchecked Sendable {
    public static let name = "Broadcaster.broadcast(awaitingEach:)"
    private let broadcaster = Broadcaster()
    public init() {}
    public func add(_ listener: SessionCounter) { broadcaster.addListener(listener) }
    @MainActor public func addOnMainActor(_ listener: MainActorSessionCounter) { broadcaster.addListener(listener) }
    public func signOut(times: Int) async {
        for _ in 0..<times {
            await broadcaster.broadcast(awaitingEach: SessionListener.self) { await $0.userSignedOut() }
        }
    }
}

/// The hand-written floor: weak boxes typed at registration (an existential,
/// as the synchronous reference's), a snapshot
/// under a lock, one `await` per live listener. Main-actor listeners are
/// called from one main-actor function (one hop there and back per
/// broadcast), as one would write it by hand.
public final class WeakBoxAwaitLoop: AwaitedImplementation, @unchecked Sendable {
    public static let name = "weak boxes + await loop"

    /// Typed at registration, as the synchronous reference (`weak-typed`) is.
    // @unchecked Sendable (both boxes): `listener` is only written in
    // `init`; loading a weak reference is thread-safe.
    final class Box: @unchecked Sendable {
        weak var listener: (any SessionListener)?
        init(_ listener: any SessionListener) { self.listener = listener }
    }

    /// Typed at registration, on the main actor (the conformance is
    /// isolated to it), and only read there.
    final class MainActorBox: @unchecked Sendable {
        weak var listener: (any SessionListener)?
        @MainActor init(_ listener: MainActorSessionCounter) { self.listener = listener }
    }

    private let boxes = Locked<[Box]>([])
    private let mainActorBoxes = Locked<[MainActorBox]>([])
    public init() {}
    public func add(_ listener: SessionCounter) { boxes.withLock { $0.append(Box(listener)) } }
    @MainActor public func addOnMainActor(_ listener: MainActorSessionCounter) {
        mainActorBoxes.withLock { $0.append(MainActorBox(listener)) }
    }

    public func signOut(times: Int) async {
        for _ in 0..<times {
            let snapshot = boxes.withLock { $0 }
            for box in snapshot { await box.listener?.userSignedOut() }
            let mainActorSnapshot = UncheckedBox(mainActorBoxes.withLock { $0 })
            if !mainActorSnapshot.value.isEmpty { await Self.signOutOnMainActor(mainActorSnapshot) }
        }
    }

    @MainActor private static func signOutOnMainActor(_ boxes: UncheckedBox<[MainActorBox]>) async {
        for box in boxes.value { await box.listener?.userSignedOut() }
    }
}

/// The same weak boxes, awaited through a `nonisolated(nonsending)` closure
/// from a loop running where the calls run (entered through a function
/// isolated to that place), as `broadcast(awaitingEach:)` calls its closure:
/// the cost of that isolation guarantee alone, without the broadcaster's
/// per-listener checks.
public final class WeakBoxNonsendingLoop: AwaitedImplementation, @unchecked Sendable {
    public static let name = "weak boxes + nonsending closure loop"
    private let boxes = Locked<[WeakBoxAwaitLoop.Box]>([])
    private let mainActorBoxes = Locked<[WeakBoxAwaitLoop.MainActorBox]>([])
    public init() {}
    public func add(_ listener: SessionCounter) { boxes.withLock { $0.append(WeakBoxAwaitLoop.Box(listener)) } }
    @MainActor public func addOnMainActor(_ listener: MainActorSessionCounter) {
        mainActorBoxes.withLock { $0.append(WeakBoxAwaitLoop.MainActorBox(listener)) }
    }

    public func signOut(times: Int) async {
        for _ in 0..<times {
            await Self.loop(UncheckedBox(boxes.withLock { $0 }), on: nil) { await $0.userSignedOut() }
            let mainActorSnapshot = UncheckedBox(mainActorBoxes.withLock { $0 })
            if !mainActorSnapshot.value.isEmpty {
                await Self.loop(mainActorSnapshot, on: MainActor.shared) { await $0.userSignedOut() }
            }
        }
    }

    private static func loop<Box: WeakSessionBox>(
        _ boxes: UncheckedBox<[Box]>,
        on actor: isolated (any Actor)?,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending any SessionListener) async -> Void
    ) async {
        await callEach(boxes, deliver)
    }

    /// The loop itself, `nonisolated(nonsending)` as `deliver` is, so that
    /// each call returns where the loop runs (isolated by a parameter, the
    /// loop would hop back to `actor` after every call, a second executor
    /// switch per call).
    private nonisolated(nonsending) static func callEach<Box: WeakSessionBox>(
        _ boxes: UncheckedBox<[Box]>,
        _ deliver: nonisolated(nonsending) @escaping @Sendable (sending any SessionListener) async -> Void
    ) async {
        for box in boxes.value {
            guard let listener = box.listener else { continue }
            await deliver(listener)
        }
    }
}

/// A weak box of a session listener.
protocol WeakSessionBox: AnyObject, Sendable {
    var listener: (any SessionListener)? { get }
}

extension WeakBoxAwaitLoop.Box: WeakSessionBox {}
extension WeakBoxAwaitLoop.MainActorBox: WeakSessionBox {}

/// A message for `NotificationCenter.AsyncMessage` observers.
public struct SignedOutAsyncMessage: NotificationCenter.AsyncMessage {
    public typealias Subject = MessageSubject
    public init() {}
}

/// `NotificationCenter.AsyncMessage`: `post` returns at once and calls each
/// async observer in no particular order; a countdown the observers arrive
/// at gives the time until all have run. Main-actor observers hop with
/// `MainActor.run`.
public final class AsyncMessageAwaited: AwaitedImplementation, @unchecked Sendable {
    public static let name = "NC.AsyncMessage + countdown"
    private let center = NotificationCenter()
    private let countdown = Countdown()
    private let listenerCount = Locked(0)
    public init() {}

    public func add(_ listener: SessionCounter) {
        let countdown = self.countdown
        listenerCount.withLock { $0 += 1 }
        listener.token = center.addObserver(of: nil as MessageSubject?, for: SignedOutAsyncMessage.self) {
            [weak listener] _ in
            await listener?.userSignedOut()
            countdown.arrive()
        }
    }

    @MainActor public func addOnMainActor(_ listener: MainActorSessionCounter) {
        let countdown = self.countdown
        listenerCount.withLock { $0 += 1 }
        listener.token = center.addObserver(of: nil as MessageSubject?, for: SignedOutAsyncMessage.self) {
            [weak listener] _ in
            await MainActor.run { listener?.received &+= 1 }
            countdown.arrive()
        }
    }

    public func signOut(times: Int) async {
        let count = listenerCount.withLock { $0 }
        let center = self.center
        for _ in 0..<times {
            await countdown.run(expecting: count) { center.post(SignedOutAsyncMessage()) }
        }
    }
}

public let allAwaitedImplementations: [any AwaitedImplementation.Type] = [
    WeakBoxAwaitLoop.self, WeakBoxNonsendingLoop.self, BroadcasterAwaited.self, AsyncMessageAwaited.self,
]

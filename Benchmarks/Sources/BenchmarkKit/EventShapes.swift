import Broadcast
import Dispatch
import Foundation
import Synchronization

// The event API measured in the README's shape (the struct `PostValue`):
// `post` to closure handlers in every registration form, to `EventListener`
// objects, sticky posts with what builds on them, and `events(of:)` beside a
// hand-written stream. Each handler calls its listener through a weak
// reference, as the peers' closures do (ValuePeers.swift).

/// How a shape's handlers are registered.
public enum HandlerForm: String, Sendable, CaseIterable {
    /// `addHandler(for:) { [weak listener] in … }`, posted from code with no actor.
    case plain
    /// `addHandler(for:owner:) { listener, event in … }`: the owner held weakly by the library.
    case owner = "owner:"
    /// `addHandler(for:calledOn: MainActor.shared)`, registered and posted on the main actor.
    case calledOn = "calledOn: main actor, posted there"
    /// `addHandler(for:receivingSticky: true)`, posted without `sticky:`.
    case receivingSticky = "receivingSticky:"
    /// `addHandler(for:consumingSticky: true)`, posted without `sticky:`.
    case consumingSticky = "consumingSticky:"
}

/// A `Broadcaster`'s closure handlers of `PostValue`, one per listener, in
/// one of the registration forms.
public final class PostHandlerShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the tokens are only written in the initializer;
    // the listeners are a sink for the optimizer (see `ValueListener`).
    public let name: String
    public let allocatesNothing = true
    private let broadcaster = Broadcaster()
    private let listeners: [ValueListener]
    private var tokens: [BroadcastToken] = []
    private let post = PostValue(title: "Hello", id: 1)
    private let form: HandlerForm

    /// Registers `listenerCount` handlers in `form`, on the main actor for
    /// `.calledOn` (the others register as from code with no actor).
    @MainActor public init(listenerCount: Int, form: HandlerForm) {
        self.form = form
        name = "post to handlers, \(form.rawValue)"
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { tokens.append(register(listener)) }
    }

    @MainActor private func register(_ listener: ValueListener) -> BroadcastToken {
        switch form {
        case .plain:
            return Self.plain(broadcaster, listener)
        case .owner:
            return broadcaster.addHandler(for: PostValue.self, owner: listener) { listener, post in
                listener.postCreated(post)
            }
        case .calledOn:
            return broadcaster.addHandler(for: PostValue.self, calledOn: MainActor.shared) { [weak listener] post in
                listener?.postCreated(post)
            }
        case .receivingSticky:
            return broadcaster.addHandler(for: PostValue.self, receivingSticky: true) { [weak listener] post in
                listener?.postCreated(post)
            }
        case .consumingSticky:
            return broadcaster.addHandler(for: PostValue.self, consumingSticky: true) { [weak listener] post in
                listener?.postCreated(post)
            }
        }
    }

    /// The plain form, as code with no actor writes it.
    nonisolated static func plain(_ broadcaster: Broadcaster, _ listener: ValueListener) -> BroadcastToken {
        broadcaster.addHandler(for: PostValue.self) { [weak listener] post in listener?.postCreated(post) }
    }

    public func broadcast(times: Int) {
        guard form == .calledOn else {
            for _ in 0..<times { broadcaster.post(post) }
            return
        }
        MainActor.assumeIsolated { postOnMainActor(times: times) }
    }

    @MainActor private func postOnMainActor(times: Int) {
        for _ in 0..<times { broadcaster.post(post) }
    }

    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// An `EventListener` of `PostValue`: a class held weakly, like any listener.
public final class PostValueEventListener: EventListener, @unchecked Sendable {
    // @unchecked Sendable: as `ValueListener`.
    public var received = 0
    public init() {}
    public func receive(_ event: PostValue) { received &+= event.id }
}

/// `post` to `EventListener` objects registered with `addListener`.
public final class PostEventListenerShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: as `PostHandlerShape`.
    public static let name = "post to EventListener objects"
    public var name: String { Self.name }
    public let allocatesNothing = true
    private let broadcaster = Broadcaster()
    private let listeners: [PostValueEventListener]
    private let post = PostValue(title: "Hello", id: 1)

    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in PostValueEventListener() }
        for listener in listeners { broadcaster.addListener(listener) }
    }

    public func broadcast(times: Int) {
        for _ in 0..<times { broadcaster.post(post) }
    }

    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// What a sticky post costs with the two things built on it registered: an
/// `ObservableStickyEvent` and a handler registered with
/// `consumingSticky: true` (which takes each state), on the main actor.
public final class StickyPostShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: everything is touched on the main actor only
    // (`assumeIsolated` checks it).
    public let name: String
    public let allocatesNothing = false
    private let broadcaster = Broadcaster()
    private let observed: ObservableStickyEvent<PostValue>
    private let listener = ValueListener()
    private var token: BroadcastToken?
    private let post = PostValue(title: "Hello", id: 1)
    private let setsOnly: Bool
    private var sets = 0

    /// `setsOnly`: `setStickyEvent` rather than `post(_:sticky: true)`.
    @MainActor public init(setsOnly: Bool) {
        self.setsOnly = setsOnly
        name =
            setsOnly
            ? "setStickyEvent, ObservableStickyEvent + consuming handler"
            : "post sticky, ObservableStickyEvent + consuming handler"
        observed = ObservableStickyEvent(for: PostValue.self, on: broadcaster)
        token = broadcaster.addHandler(for: PostValue.self, consumingSticky: true) { [weak listener] post in
            listener?.postCreated(post)
        }
    }

    public func broadcast(times: Int) {
        MainActor.assumeIsolated { postOnMainActor(times: times) }
    }

    @MainActor private func postOnMainActor(times: Int) {
        if setsOnly {
            for _ in 0..<times { broadcaster.setStickyEvent(post) }
            sets &+= times
        } else {
            for _ in 0..<times { broadcaster.post(post, sticky: true) }
        }
        // The observer's refresh, scheduled on the main actor, is not part of
        // the post; it reads the latest state only.
        _ = observed
    }

    /// A sticky post's one delivery, the consuming handler's; for a set, the
    /// sets made (a set delivers nothing).
    public var delivered: Int { setsOnly ? sets : listener.received }
}

/// `events(of:)`: one stream, each post yields one element, kept newest-only
/// so that the buffer stays one element (the consumer is not measured).
public final class EventStreamShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the stream is only held, never iterated.
    public static let name = "post to events(of:) streams, per element"
    public var name: String { Self.name }
    public let allocatesNothing = false
    private let broadcaster: Broadcaster
    private let streams: [BroadcastEvents<PostValue>]
    private let post = PostValue(title: "Hello", id: 1)
    private let posted = Atomic<Int>(0)

    public init(listenerCount: Int) {
        let broadcaster = Broadcaster()
        self.broadcaster = broadcaster
        streams = (0..<listenerCount).map { _ in
            broadcaster.events(of: PostValue.self, bufferingPolicy: .bufferingNewest(1))
        }
    }

    public func broadcast(times: Int) {
        for _ in 0..<times { posted.add(broadcaster.post(post), ordering: .relaxed) }
    }

    public var delivered: Int { posted.load(ordering: .relaxed) }
}

/// The hand-written stream: a lock-protected list of continuations, each
/// element yielded to every one.
public final class LockedContinuationsShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the continuations are behind `Locked`.
    public static let name = "hand-written AsyncStream, locked continuation list"
    public var name: String { Self.name }
    public let allocatesNothing = false
    private let continuations = Locked<[AsyncStream<PostValue>.Continuation]>([])
    private let streams: [AsyncStream<PostValue>]
    private let post = PostValue(title: "Hello", id: 1)
    private let posted = Atomic<Int>(0)

    public init(listenerCount: Int) {
        var streams: [AsyncStream<PostValue>] = []
        for _ in 0..<listenerCount {
            let (stream, continuation) = AsyncStream.makeStream(
                of: PostValue.self, bufferingPolicy: .bufferingNewest(1))
            streams.append(stream)
            continuations.withLock { $0.append(continuation) }
        }
        self.streams = streams
    }

    public func broadcast(times: Int) {
        for _ in 0..<times {
            let snapshot = continuations.withLock { $0 }
            for continuation in snapshot { continuation.yield(post) }
            posted.add(snapshot.count, ordering: .relaxed)
        }
    }

    public var delivered: Int { posted.load(ordering: .relaxed) }
}

/// Foundation's typed `AsyncMessage` carrying the struct payload.
public struct PostValueCreatedAsyncMessage: NotificationCenter.AsyncMessage {
    /// Posted without a subject.
    public typealias Subject = MessageSubject
    /// The payload.
    public let post: PostValue
}

/// `NotificationCenter.AsyncMessage`: `post` returns at once and each
/// observer runs later, in a task; a run posts `times` messages and waits
/// until every observer has run for each, so its time is delivery included.
public final class AsyncMessageValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the tokens are only written in the initializer;
    // the countdown is thread-safe.
    public static let name = "NC.AsyncMessage (struct payload), until delivered"
    public var name: String { Self.name }
    public let allocatesNothing = false
    private let center = NotificationCenter()
    private let listeners: [ValueListener]
    private var tokens: [NotificationCenter.ObservationToken] = []
    private let post = PostValue(title: "Hello", id: 1)
    private let countdown = BlockingCountdown()

    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners {
            tokens.append(
                center.addObserver(of: nil as MessageSubject?, for: PostValueCreatedAsyncMessage.self) {
                    [weak listener, countdown] message in
                    listener?.postCreated(message.post)
                    countdown.arrive()
                })
        }
    }

    public func broadcast(times: Int) {
        guard times > 0, !listeners.isEmpty else { return }
        countdown.run(expecting: times * listeners.count) {
            for _ in 0..<times { center.post(PostValueCreatedAsyncMessage(post: post)) }
        }
    }

    public var delivered: Int { countdown.arrived }
}

/// Blocks the posting thread until a number of asynchronous calls have
/// arrived (they run on the cooperative pool, not on this thread).
final class BlockingCountdown: Sendable {
    private struct State {
        var remaining = 0
        var arrived = 0
    }
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    func run(expecting count: Int, _ body: () -> Void) {
        state.withLock { $0.remaining += count }
        body()
        done.wait()
    }

    func arrive() {
        let isLast = state.withLock { state in
            state.arrived += 1
            state.remaining -= 1
            return state.remaining == 0
        }
        if isLast { done.signal() }
    }

    var arrived: Int { state.withLock { $0.arrived } }
}

import Broadcast
import Synchronization

// The shapes apps write, beside the class-payload shape of Implementations.swift:
// a struct payload holding a `String` (the README's `Post`), a typed broadcast
// passing two values, and listeners registered from main-actor code and
// broadcast on the main actor. The default-MainActor client module
// (`BenchmarkMainActorClient`) adds the shape of an app module built with
// Xcode's defaults.

/// The README's payload: a struct with a `String`, too large to be a closure's
/// context by itself (a class payload is).
public struct PostValue: Sendable {
    public let title: String
    public let id: Int
    public init(title: String, id: Int) {
        self.title = title
        self.id = id
    }
}

/// A protocol whose method takes the struct payload.
public protocol PostValueListener: AnyObject {
    func postCreated(_ post: PostValue)
}

/// A protocol whose method takes two values.
public protocol PostAuthorListener: AnyObject {
    func postCreated(_ post: PostValue, by author: String)
}

/// A listener of both, with no actor. Its work is one add.
///
/// `@unchecked Sendable` for the same reason as `Listener`.
public final class ValueListener: PostValueListener, PostAuthorListener, @unchecked Sendable {
    public var received = 0
    public init() {}
    public func postCreated(_ post: PostValue) { received &+= post.id }
    public func postCreated(_ post: PostValue, by author: String) { received &+= post.id }
}

extension Broadcaster {
    /// The README's typed broadcast, with the closure capturing the payload.
    func valuePostCreated(_ post: PostValue) {
        broadcast(to: PostValueListener.self) { $0.postCreated(post) }
    }

    /// A typed broadcast of two values, with the closure capturing both.
    func valuePostCreated(_ post: PostValue, by author: String) {
        broadcast(to: PostAuthorListener.self) { $0.postCreated(post, by: author) }
    }

    /// The README's typed broadcast, with the payload passed to a closure
    /// that captures nothing.
    func valuePostCreatedWith(_ post: PostValue) {
        broadcast(to: PostValueListener.self, with: post) { $0.postCreated($1) }
    }

    /// Two values, passed as a tuple.
    func valuePostCreatedWith(_ post: PostValue, by author: String) {
        broadcast(to: PostAuthorListener.self, with: (post, author)) { $0.postCreated($1.0, by: $1.1) }
    }
}

/// How a typed broadcast passes its payload.
public enum BroadcastForm: String, Sendable, CaseIterable {
    /// `broadcast(to: P.self) { $0.postCreated(post) }`: the closure captures it.
    case closure
    /// `broadcast(to: P.self, with: post) { $0.postCreated($1) }`: passed to a
    /// closure that captures nothing.
    case with = "with:"
}

/// One shape of broadcast, measured side by side with the others: each owns
/// its broadcaster (or registry) and its listeners.
///
/// `broadcast(times:)` is called on the main thread; the main-actor shapes
/// broadcast inside `MainActor.assumeIsolated`, so they must be called on the
/// main actor.
public protocol UserShape: AnyObject, Sendable {
    /// Stable name, the `implementation` key of the JSON.
    var name: String { get }
    /// Broadcasts `times` times (the loop is in the shape, so it is specialized).
    func broadcast(times: Int)
    /// Deliveries so far, summed over the listeners.
    var delivered: Int { get }
    /// Whether a broadcast allocates nothing by design (checked by the runner).
    var allocatesNothing: Bool { get }
}

/// The floor for a struct payload: weak boxes typed at registration (as
/// `WeakTyped`), a lock, a snapshot, a weak load and a call.
public final class WeakTypedValueShape: UserShape, @unchecked Sendable {
    public static let name = "weak-typed (struct payload)"
    public var name: String { Self.name }
    final class Box {
        weak var listener: (any PostValueListener)?
        init(listener: any PostValueListener) { self.listener = listener }
    }
    private let boxes = Locked<[Box]>([])
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    public let allocatesNothing = true
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { boxes.withLock { $0.append(Box(listener: listener)) } }
    }
    public func broadcast(times: Int) {
        for _ in 0..<times {
            let snapshot = boxes.withLock { $0 }
            for box in snapshot { box.listener?.postCreated(post) }
        }
    }
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// `Broadcaster` with the struct payload, listeners registered from
/// non-isolated code, broadcast from non-isolated code.
public final class ValueShape: UserShape, @unchecked Sendable {
    public let name: String
    private let broadcaster = Broadcaster()
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    private let form: BroadcastForm
    public var allocatesNothing: Bool { form == .with }
    public init(listenerCount: Int, form: BroadcastForm) {
        self.form = form
        name = "Broadcaster, struct payload, \(form.rawValue)"
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { broadcaster.addListener(listener) }
    }
    public func broadcast(times: Int) {
        switch form {
        case .closure: for _ in 0..<times { broadcaster.valuePostCreated(post) }
        case .with: for _ in 0..<times { broadcaster.valuePostCreatedWith(post) }
        }
    }
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// ``ValueShape``'s `with:` broadcast on a broadcaster whose tap does
/// nothing: what watching a broadcast costs (the tap's observation made and
/// handed over once per broadcast, on top of the delivery).
public final class TappedValueShape: UserShape, @unchecked Sendable {
    public static let name = "Broadcaster, struct payload, with:, a no-op tap"
    public var name: String { Self.name }
    private struct NoOpTap: BroadcastTap {
        func observe(_ observation: BroadcastObservation) {}
    }
    private let broadcaster = Broadcaster(tap: NoOpTap())
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    public var allocatesNothing: Bool { false }
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { broadcaster.addListener(listener) }
    }
    public func broadcast(times: Int) {
        for _ in 0..<times { broadcaster.valuePostCreatedWith(post) }
    }
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// `Broadcaster` with two values, listeners registered from non-isolated
/// code, broadcast from non-isolated code.
public final class TwoValuesShape: UserShape, @unchecked Sendable {
    public let name: String
    private let broadcaster = Broadcaster()
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    private let author = "Ada Lovelace, the first programmer"
    private let form: BroadcastForm
    public var allocatesNothing: Bool { form == .with }
    public init(listenerCount: Int, form: BroadcastForm) {
        self.form = form
        name = "Broadcaster, two values, \(form.rawValue)"
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { broadcaster.addListener(listener) }
    }
    public func broadcast(times: Int) {
        switch form {
        case .closure: for _ in 0..<times { broadcaster.valuePostCreated(post, by: author) }
        case .with: for _ in 0..<times { broadcaster.valuePostCreatedWith(post, by: author) }
        }
    }
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// `Broadcaster` with the struct payload, the same listeners registered from
/// main-actor code and broadcast from main-actor code (through the same
/// non-isolated typed method, as a view controller calls it).
public final class MainActorValueShape: UserShape, @unchecked Sendable {
    public let name: String
    private let broadcaster = Broadcaster()
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    private let form: BroadcastForm
    public var allocatesNothing: Bool { form == .with }
    @MainActor public init(listenerCount: Int, form: BroadcastForm) {
        self.form = form
        name = "Broadcaster, struct payload, \(form.rawValue), main actor"
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { broadcaster.addListener(listener) }
    }
    public func broadcast(times: Int) {
        MainActor.assumeIsolated { broadcastOnMainActor(times: times) }
    }
    @MainActor func broadcastOnMainActor(times: Int) {
        switch form {
        case .closure: for _ in 0..<times { broadcaster.valuePostCreated(post) }
        case .with: for _ in 0..<times { broadcaster.valuePostCreatedWith(post) }
        }
    }
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

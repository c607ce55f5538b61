import BenchmarkGenericCast

// The floors of a design that holds its listeners as `AnyObject` and finds
// each one's conformance at delivery time, as a library generic over the
// protocol must. Same lock, snapshot, class boxes and struct payload as
// `WeakTypedValueShape`; only the cast differs.

/// Weak boxes of `AnyObject`: what a registry that does not know the
/// protocol at registration keeps.
final class AnyObjectBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// The cast floor: weak `AnyObject` references, each cast with `as?`.
///
/// The loop an app author writes, casting each listener with
/// `as? PostValueListener`. The concrete cast compiles to a direct `swift_conformsToProtocol` call, which does not check
/// isolated conformances.
public final class WeakCastValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the boxes are behind `Locked`; the listeners are
    // only a sink for the optimizer (see `ValueListener`).
    /// The row's name.
    public static let name = "weak-cast (struct payload)"
    /// The row's name.
    public var name: String { Self.name }
    private let boxes = Locked<[AnyObjectBox]>([])
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    /// The loop allocates nothing.
    public let allocatesNothing = true

    /// Registers `listenerCount` fresh listeners.
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { boxes.withLock { $0.append(AnyObjectBox(listener)) } }
    }

    /// Broadcasts `times` times.
    public func broadcast(times: Int) {
        for _ in 0..<times {
            let snapshot = boxes.withLock { $0 }
            for box in snapshot {
                guard let object = box.object else { continue }
                if let listener = object as? PostValueListener { listener.postCreated(post) }
            }
        }
    }

    /// Deliveries so far.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// The isolation-checking cast floor: the same loop, cast generically.
///
/// The cast is made by `castUnspecialized(_:to:)`, a generic function of another module that
/// cannot be specialized here, so it goes through `swift_dynamicCast`, which
/// checks isolated conformances. What a safe generic library pays at least.
public final class WeakGenericCastValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: as `WeakCastValueShape`.
    /// The row's name.
    public static let name = "weak-generic-cast (struct payload)"
    /// The row's name.
    public var name: String { Self.name }
    private let boxes = Locked<[AnyObjectBox]>([])
    private let listeners: [ValueListener]
    private let post = PostValue(title: "Hello", id: 1)
    /// The loop allocates nothing.
    public let allocatesNothing = true

    /// Registers `listenerCount` fresh listeners.
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners { boxes.withLock { $0.append(AnyObjectBox(listener)) } }
    }

    /// Broadcasts `times` times.
    public func broadcast(times: Int) {
        for _ in 0..<times {
            let snapshot = boxes.withLock { $0 }
            for box in snapshot {
                guard let object = box.object else { continue }
                if let listener = castUnspecialized(object, to: PostValueListener.self) { listener.postCreated(post) }
            }
        }
    }

    /// Deliveries so far.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

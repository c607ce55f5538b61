import Broadcast
import Foundation
import OpenCombine

/// One way of delivering `postCreated(_:)` to many listeners. Every
/// implementation gets the same `Listener` objects, registered its own way.
///
/// `broadcast(_:times:)` contains the loop, so each implementation's loop is
/// specialized and the timing has no dispatch of the harness in it.
///
/// `Sendable` because the concurrent scenario calls one instance from three
/// threads; the classes are `@unchecked Sendable` because their state is
/// either behind a lock or a thread-safe peer (`NotificationCenter`,
/// `PassthroughSubject`, `Broadcaster`), except `MainActorMessages`, which is
/// only used on the main actor (`isThreadSafe` is false).
public protocol Implementation: AnyObject, Sendable {
    /// Stable name, used as the `implementation` key of the JSON.
    static var name: String { get }
    /// Whether it may be called from several threads at once (the concurrent
    /// scenario).
    static var isThreadSafe: Bool { get }
    init()
    func add(_ listener: Listener)
    func remove(_ listener: Listener)
    /// Registers a listener of the unrelated protocol.
    func addOther(_ listener: OtherListener)
    func broadcast(_ post: Post, times: Int)
}

extension Implementation {
    public static var isThreadSafe: Bool { true }
}

// MARK: - 1. Strong array

/// `[any PostListener]` with direct calls: the physical limit (not weak).
public final class StrongArray: Implementation, @unchecked Sendable {
    public static let name = "strong-array"
    private let listeners = Locked<[any PostListener]>([])
    private let others = Locked<[any LoginListener]>([])
    public init() {}
    public func add(_ listener: Listener) { listeners.withLock { $0.append(listener) } }
    public func remove(_ listener: Listener) {
        listeners.withLock { list in
            if let index = list.firstIndex(where: { $0 === listener }) { list.remove(at: index) }
        }
    }
    public func addOther(_ listener: OtherListener) { others.withLock { $0.append(listener) } }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times {
            let snapshot = listeners.withLock { $0 }
            for listener in snapshot { listener.postCreated(post) }
        }
    }
}

// MARK: - 2. Weak boxes typed at registration (the floor)

/// Weak boxes holding `(any PostListener)?`, typed when the listener
/// registers, so a broadcast does a weak load and a call, no cast: the floor
/// for any weak design.
public final class WeakTyped: Implementation, @unchecked Sendable {
    public static let name = "weak-typed"
    // Boxes are classes: copying a struct that holds a weak reference copies
    // the weak reference (swift_weakCopyInit + swift_weakDestroy, measured
    // ~75 instructions and two atomics on the side table per delivery),
    // while a class box costs a plain retain and release.
    final class Box {
        weak var listener: (any PostListener)?
        init(listener: any PostListener) { self.listener = listener }
    }
    final class OtherBox {
        weak var listener: (any LoginListener)?
        init(listener: any LoginListener) { self.listener = listener }
    }
    private let listeners = Locked<[Box]>([])
    private let others = Locked<[OtherBox]>([])
    public init() {}
    public func add(_ listener: Listener) { listeners.withLock { $0.append(Box(listener: listener)) } }
    public func remove(_ listener: Listener) {
        listeners.withLock { list in
            if let index = list.firstIndex(where: { $0.listener === listener }) { list.remove(at: index) }
        }
    }
    public func addOther(_ listener: OtherListener) { others.withLock { $0.append(OtherBox(listener: listener)) } }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times {
            let snapshot = listeners.withLock { $0 }
            for box in snapshot { box.listener?.postCreated(post) }
        }
    }
}

// MARK: - 3. The seed design

/// The seed (`GlobalBroadcaster`, shared/seeds/002): one weak table of
/// `AnyObject`, and `filteredListeners<T>()` = `compactMap { $0 as? T }` on
/// every broadcast. `NSHashTable` is not in swift-corelibs-foundation, so the
/// weak table is an array of weak boxes (removal searches it, as
/// `NSHashTable`-free ports of the seed do); it is locked so that the
/// concurrent scenario can run it (the seed itself was not thread-safe).
public final class SeedDesign: Implementation, @unchecked Sendable {
    public static let name = "seed-compactMap"
    struct WeakBox { weak var object: AnyObject? }
    private let table = Locked<[WeakBox]>([])
    public init() {}
    func addListener(_ object: AnyObject) { table.withLock { $0.append(WeakBox(object: object)) } }
    private func filteredListeners<T>() -> [T] {
        let all = table.withLock { $0 }
        return all.compactMap { $0.object as? T }
    }
    func postCreated(_ post: Post) {
        let listeners: [any PostListener] = filteredListeners()
        listeners.forEach { $0.postCreated(post) }
    }

    public func add(_ listener: Listener) { addListener(listener) }
    public func remove(_ listener: Listener) {
        table.withLock { table in
            if let index = table.firstIndex(where: { $0.object === listener }) { table.remove(at: index) }
        }
    }
    public func addOther(_ listener: OtherListener) { addListener(listener) }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times { postCreated(post) }
    }
}

// MARK: - 4. Broadcaster

extension Broadcaster {
    /// The typed method an app writes once per event.
    func postCreated(_ post: Post) {
        broadcast(to: (any PostListener).self) { $0.postCreated(post) }
    }
}

/// The library under test, registered and called from non-isolated code (its
/// listeners may be called on any thread).
public final class BroadcasterImplementation: Implementation, @unchecked Sendable {
    public static let name = "Broadcaster"
    public let broadcaster = Broadcaster()
    public init() {}
    public func add(_ listener: Listener) { broadcaster.addListener(listener) }
    public func remove(_ listener: Listener) { broadcaster.removeListener(listener) }
    public func addOther(_ listener: OtherListener) { broadcaster.addListener(listener) }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times { broadcaster.postCreated(post) }
    }
}

// MARK: - 5. NotificationCenter, block observers + userInfo

extension Notification.Name {
    static let benchmarkPostCreated = Notification.Name("BenchmarkPostCreated")
    static let benchmarkUserLoggedIn = Notification.Name("BenchmarkUserLoggedIn")
}

/// A private `NotificationCenter`; each listener keeps its observer token, and
/// the block unpacks `userInfo` as the seed's article shows.
public final class NotificationCenterBlocks: Implementation, @unchecked Sendable {
    public static let name = "NotificationCenter"
    private let center = NotificationCenter()
    public init() {}
    public func add(_ listener: Listener) {
        listener.token = center.addObserver(forName: .benchmarkPostCreated, object: nil, queue: nil) { [weak listener] note in
            guard let post = note.userInfo?["post"] as? Post else { return }
            listener?.postCreated(post)
        }
    }
    public func remove(_ listener: Listener) {
        if let token = listener.token as? NSObjectProtocol { center.removeObserver(token) }
        listener.token = nil
    }
    public func addOther(_ listener: OtherListener) {
        listener.token = center.addObserver(forName: .benchmarkUserLoggedIn, object: nil, queue: nil) { [weak listener] note in
            guard let id = note.userInfo?["id"] as? Int else { return }
            listener?.userLoggedIn(id)
        }
    }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times {
            center.post(name: .benchmarkPostCreated, object: nil, userInfo: ["post": post])
        }
    }
}

// MARK: - 6. Foundation typed messages

/// The subject type of the benchmark's messages (posted without a subject).
public final class MessageSubject: Sendable {}

/// `NotificationCenter.MainActorMessage`: synchronous, main actor only.
public struct PostCreatedMainActorMessage: NotificationCenter.MainActorMessage {
    public typealias Subject = MessageSubject
    public let post: Post
}

public struct UserLoggedInMainActorMessage: NotificationCenter.MainActorMessage {
    public typealias Subject = MessageSubject
    public let userID: Int
}

/// `NotificationCenter.AsyncMessage`: asynchronous (reported separately).
public struct PostCreatedAsyncMessage: NotificationCenter.AsyncMessage {
    public typealias Subject = MessageSubject
    public let post: Post
}

/// Foundation's typed `MainActorMessage`. It can only be posted on the main
/// actor, so the runner drives it from there (`assumeIsolated` is checked once
/// per call of these methods, not per message), and it sits out the
/// concurrent scenario.
public final class MainActorMessages: Implementation, @unchecked Sendable {
    public static let name = "NC.MainActorMessage"
    public static var isThreadSafe: Bool { false }
    private let center = NotificationCenter()
    public init() {}
    public func add(_ listener: Listener) {
        MainActor.assumeIsolated {
            listener.token = center.addObserver(of: nil as MessageSubject?, for: PostCreatedMainActorMessage.self) {
                [weak listener] message in
                listener?.postCreated(message.post)
            }
        }
    }
    public func remove(_ listener: Listener) {
        if let token = listener.token as? NotificationCenter.ObservationToken { center.removeObserver(token) }
        listener.token = nil
    }
    public func addOther(_ listener: OtherListener) {
        MainActor.assumeIsolated {
            listener.token = center.addObserver(of: nil as MessageSubject?, for: UserLoggedInMainActorMessage.self) {
                [weak listener] message in
                listener?.userLoggedIn(message.userID)
            }
        }
    }
    public func broadcast(_ post: Post, times: Int) {
        MainActor.assumeIsolated {
            for _ in 0..<times { center.post(PostCreatedMainActorMessage(post: post)) }
        }
    }
}

// MARK: - 7. OpenCombine

/// One `PassthroughSubject` per event; each listener keeps its `sink`'s
/// `AnyCancellable`.
public final class OpenCombineSubject: Implementation, @unchecked Sendable {
    public static let name = "OpenCombine"
    private let subject = PassthroughSubject<Post, Never>()
    private let logins = PassthroughSubject<Int, Never>()
    public init() {}
    public func add(_ listener: Listener) {
        listener.token = subject.sink { [weak listener] post in listener?.postCreated(post) }
    }
    public func remove(_ listener: Listener) {
        (listener.token as? AnyCancellable)?.cancel()
        listener.token = nil
    }
    public func addOther(_ listener: OtherListener) {
        listener.token = logins.sink { [weak listener] id in listener?.userLoggedIn(id) }
    }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times { subject.send(post) }
    }
}

// MARK: - 8. Closure array

/// An array of closures per event, each capturing its listener weakly.
public final class ClosureArray: Implementation, @unchecked Sendable {
    public static let name = "closure-array"
    struct Entry {
        let id: ObjectIdentifier
        let call: (Post) -> Void
    }
    private let handlers = Locked<[Entry]>([])
    private let others = Locked<[(Int) -> Void]>([])
    public init() {}
    public func add(_ listener: Listener) {
        handlers.withLock {
            $0.append(Entry(id: ObjectIdentifier(listener)) { [weak listener] post in listener?.postCreated(post) })
        }
    }
    public func remove(_ listener: Listener) {
        let id = ObjectIdentifier(listener)
        handlers.withLock { list in
            if let index = list.firstIndex(where: { $0.id == id }) { list.remove(at: index) }
        }
    }
    public func addOther(_ listener: OtherListener) {
        others.withLock { $0.append { [weak listener] id in listener?.userLoggedIn(id) } }
    }
    public func broadcast(_ post: Post, times: Int) {
        for _ in 0..<times {
            let snapshot = handlers.withLock { $0 }
            for entry in snapshot { entry.call(post) }
        }
    }
}

/// Every implementation, in the order of the tables.
public let allImplementations: [any Implementation.Type] = [
    StrongArray.self, WeakTyped.self, SeedDesign.self, BroadcasterImplementation.self,
    NotificationCenterBlocks.self, MainActorMessages.self, OpenCombineSubject.self, ClosureArray.self,
]

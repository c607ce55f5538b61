import Foundation
import OpenCombine

// The frameworks an app would otherwise use, delivering the README's struct
// payload, so that the guard rails compare Broadcast with its peers on the
// same payload, measured side by side with it (`UserShape`). Each is
// written as in Implementations.swift; the observation tokens are kept by
// the shape, beside the listeners, as a listener would keep its own.

extension Notification.Name {
    static let benchmarkValuePostCreated = Notification.Name("BenchmarkValuePostCreated")
}

/// A private `NotificationCenter`, block observers, the payload in `userInfo`.
public final class NotificationCenterValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: `NotificationCenter` is thread-safe; the tokens
    // are only written in the initializer.
    /// The row's name.
    public static let name = "NotificationCenter (struct payload)"
    /// The row's name.
    public var name: String { Self.name }
    /// `userInfo` is a dictionary built per post.
    public let allocatesNothing = false
    private let center = NotificationCenter()
    private let listeners: [ValueListener]
    private var tokens: [any NSObjectProtocol] = []
    private let post = PostValue(title: "Hello", id: 1)

    /// Registers `listenerCount` fresh listeners.
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners {
            tokens.append(
                center.addObserver(forName: .benchmarkValuePostCreated, object: nil, queue: nil) {
                    [weak listener] note in
                    guard let post = note.userInfo?["post"] as? PostValue else { return }
                    listener?.postCreated(post)
                })
        }
    }

    /// Posts `times` times.
    public func broadcast(times: Int) {
        for _ in 0..<times {
            center.post(name: .benchmarkValuePostCreated, object: nil, userInfo: ["post": post])
        }
    }

    /// Deliveries so far.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// Foundation's typed `MainActorMessage` carrying the struct payload.
public struct PostValueCreatedMainActorMessage: NotificationCenter.MainActorMessage {
    /// Posted without a subject.
    public typealias Subject = MessageSubject
    /// The payload.
    public let post: PostValue
}

/// `NotificationCenter.MainActorMessage`: synchronous, main actor only, so
/// it posts inside `MainActor.assumeIsolated` and must be called there.
public final class MainActorMessageValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: everything is touched on the main actor only
    // (`assumeIsolated` checks it).
    /// The row's name.
    public static let name = "NC.MainActorMessage (struct payload)"
    /// The row's name.
    public var name: String { Self.name }
    /// Foundation's message path allocates per post.
    public let allocatesNothing = false
    private let center = NotificationCenter()
    private let listeners: [ValueListener]
    private var tokens: [NotificationCenter.ObservationToken] = []
    private let post = PostValue(title: "Hello", id: 1)

    /// Registers `listenerCount` fresh listeners, on the main actor.
    @MainActor public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners {
            tokens.append(
                center.addObserver(of: nil as MessageSubject?, for: PostValueCreatedMainActorMessage.self) {
                    [weak listener] message in
                    listener?.postCreated(message.post)
                })
        }
    }

    /// Posts `times` times on the main actor.
    public func broadcast(times: Int) {
        MainActor.assumeIsolated {
            for _ in 0..<times { center.post(PostValueCreatedMainActorMessage(post: post)) }
        }
    }

    /// Deliveries so far.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// OpenCombine's `PassthroughSubject` of the struct payload, one `sink` per
/// listener.
public final class OpenCombineValueShape: UserShape, @unchecked Sendable {
    // @unchecked Sendable: the subject is thread-safe; the cancellables are
    // only written in the initializer.
    /// The row's name.
    public static let name = "OpenCombine (struct payload)"
    /// The row's name.
    public var name: String { Self.name }
    /// Not checked: a peer.
    public let allocatesNothing = false
    private let subject = PassthroughSubject<PostValue, Never>()
    private let listeners: [ValueListener]
    private var cancellables: [AnyCancellable] = []
    private let post = PostValue(title: "Hello", id: 1)

    /// Registers `listenerCount` fresh listeners.
    public init(listenerCount: Int) {
        listeners = (0..<listenerCount).map { _ in ValueListener() }
        for listener in listeners {
            cancellables.append(subject.sink { [weak listener] post in listener?.postCreated(post) })
        }
    }

    /// Sends `times` times.
    public func broadcast(times: Int) {
        for _ in 0..<times { subject.send(post) }
    }

    /// Deliveries so far.
    public var delivered: Int { listeners.reduce(0) { $0 &+ $1.received } }
}

/// The names of the peers' rows: the guard rails compare with the fastest.
public let valuePeerNames: [String] = [
    NotificationCenterValueShape.name, MainActorMessageValueShape.name, OpenCombineValueShape.name,
]

/// The listener shape every implementation delivers to: one protocol with one
/// method taking a reference-type payload, as in the seed (`PostCreationListener`).

/// The payload. A class, so that passing it never copies and every
/// implementation pays the same (one pointer).
public final class Post: Sendable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// The protocol broadcast to.
public protocol PostListener: AnyObject {
    func postCreated(_ post: Post)
}

/// The unrelated protocol: listeners of it must cost a broadcast to
/// `PostListener` nothing (the "10 among 10,000" scenario).
public protocol LoginListener: AnyObject {
    func userLoggedIn(_ userID: Int)
}

/// A listener. Its work is one add, so the benchmark measures the delivery.
///
/// `@unchecked Sendable`: `received` is only a sink for the optimizer; in the
/// concurrent scenario two threads add to it without synchronization on
/// purpose (an atomic would cost more than the delivery being measured), and
/// its value is then not read.
public final class Listener: PostListener, @unchecked Sendable {
    public var received = 0
    /// Where an implementation that hands out tokens (NotificationCenter,
    /// OpenCombine, typed messages) keeps this listener's, as an app would.
    public var token: Any?
    public init() {}
    public func postCreated(_ post: Post) { received &+= post.id }
}

/// A listener of the unrelated protocol only.
public final class OtherListener: LoginListener, @unchecked Sendable {
    public var received = 0
    public var token: Any?
    public init() {}
    public func userLoggedIn(_ userID: Int) { received &+= userID }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
public func blackHole<T>(_ value: T) {}

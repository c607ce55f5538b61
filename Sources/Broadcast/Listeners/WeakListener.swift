/// A weak reference to a listener.
final class WeakListener: @unchecked Sendable {
    // @unchecked Sendable: `object` is a `weak let`, whose loads are
    // thread-safe and which is never reassigned. The loaded object is only
    // handed to the broadcaster, which applies its isolation rules before
    // calling it.
    weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

extension WeakListener {
    /// ``object``, for code under the broadcaster's lock (see
    /// ``ListenerEntry/liveObject(keepingIn:)``).
    func object(keepingIn releases: inout Releases) -> AnyObject? {
        guard let object else { return nil }
        releases.keep(object)
        return object
    }
}

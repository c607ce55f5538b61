import Synchronization

/// Keeps a closure handler registered; releasing it (or calling ``cancel()``)
/// unregisters the handler.
///
/// Like the tokens of Foundation's typed notification messages: store it for
/// as long as the handler should run, typically in a property of the object
/// that owns the handler.
public final class BroadcastToken: Sendable {
    private struct State {
        /// What keeps the handler alive while the token is.
        var retained: RetainedListener?
        var unregister: (@Sendable () -> Void)?
    }

    private let state: Mutex<State>

    init(retaining listener: RetainedListener, unregister: @escaping @Sendable () -> Void) {
        state = Mutex(State(retained: listener, unregister: unregister))
    }

    /// Unregisters the handler; calling it again does nothing.
    ///
    /// After it returns, the handler is not called by broadcasts that start
    /// afterwards, nor by the rest of a broadcast in flight on this thread.
    public func cancel() {
        let (retained, unregister) = state.withLock { state in
            defer { state = State() }
            return (state.retained, state.unregister)
        }
        unregister?()
        // Released here, outside the lock: the handler's captures may run
        // arbitrary deinitializers.
        withExtendedLifetime(retained) {}
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        state.withLock { $0.unregister == nil }
    }

    deinit {
        cancel()
    }
}

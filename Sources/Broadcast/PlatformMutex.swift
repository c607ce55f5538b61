#if canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #else
        import Bionic
    #endif

    /// The lock guarding Broadcast's shared state on Linux: a `pthread_mutex_t`.
    ///
    /// There `Synchronization.Mutex` is a futex ThreadSanitizer does not see,
    /// so an app built with `-sanitize=thread` would get reports from inside
    /// Broadcast; TSan intercepts `pthread_mutex_lock`. It has `Mutex`'s shape
    /// and is a class (one object and one `pthread_mutex_t`, made with the
    /// state it guards); `package`, for `BroadcastSystemBridge`.
    package final class PlatformMutex<Value>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only read or written inside
        // `withLock`, while `mutex` is held; `mutex` itself is thread-safe.
        /// At an address of its own: a `pthread_mutex_t` must not move once
        /// initialised, which a stored property does not promise.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        /// At an address of its own too, as `Synchronization.Mutex` keeps its
        /// value: a stored `var` of this class would be accessed with the
        /// runtime's exclusivity check on every trip (`swift_beginAccess` and
        /// `swift_endAccess`, about 80 instructions), a check the mutex
        /// already keeps from failing: only `withLock` reaches the value,
        /// with `mutex` held, and a thread that holds it cannot take it again.
        private let value: UnsafeMutablePointer<Value>

        package init(_ initialValue: sending Value) {
            mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            // Error-checking: a thread that takes the lock it holds stops
            // with a message instead of deadlocking silently.
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            let result = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
            value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            value.initialize(to: initialValue)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
            value.deinitialize(count: 1)
            value.deallocate()
        }

        package func withLock<Result, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            let locked = pthread_mutex_lock(mutex)
            precondition(locked == 0, "Broadcast: a lock was taken again by the thread that holds it (\(locked))")
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// `Mutex` inside this module is ``PlatformMutex``: a declaration of the
    /// module takes precedence over the one `Synchronization` exports.
    typealias Mutex<Value> = PlatformMutex<Value>
#else
    import Synchronization

    /// The lock guarding Broadcast's shared state on Apple platforms:
    /// `Synchronization.Mutex`, an `os_unfair_lock` ThreadSanitizer sees.
    package typealias PlatformMutex<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #else
        import Bionic
    #endif

    /// The lock guarding Broadcast's shared state: here a `pthread_mutex_t`.
    ///
    /// This branch is taken on Linux (and wherever Glibc, Musl or Bionic is
    /// the C library); Apple platforms use `Synchronization.Mutex`.
    ///
    /// Why not `Synchronization.Mutex` everywhere: on Linux it locks with a
    /// futex, in code ThreadSanitizer does not instrument, so TSan sees no
    /// happens-before edge between two critical sections and reports every
    /// access under the lock as a data race. An app built with
    /// `-sanitize=thread` would then get reports from inside Broadcast before
    /// its own. `pthread_mutex_lock` and `pthread_mutex_unlock` are
    /// intercepted by TSan, so this lock is visible to it in every build,
    /// with no flag to pass. On Apple platforms `Synchronization.Mutex` is an
    /// `os_unfair_lock`, which TSan sees, and it stays.
    ///
    /// It has `Mutex`'s shape (`init(_:)`, `withLock(_:)`), so code written
    /// against `Mutex` compiles unchanged. Unlike `Mutex` it is a class: each
    /// lock is one object plus one allocated `pthread_mutex_t`, made when
    /// the state it guards is made, never during a broadcast. It is
    /// `package`, for `BroadcastSystemBridge`.
    package final class PlatformMutex<Value>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only read or written inside
        // `withLock`, while `mutex` is held; `mutex` itself is thread-safe.
        /// The mutex, at an address of its own: a `pthread_mutex_t` must not
        /// move once initialised, which a stored property of a Swift value
        /// does not promise; the pointer is allocated in `init`, freed in
        /// `deinit`, and used only in between.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var value: Value

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
            value = initialValue
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
            mutex.deallocate()
        }

        /// Calls `body` with the guarded value while holding the lock.
        package func withLock<Result, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            let locked = pthread_mutex_lock(mutex)
            precondition(locked == 0, "Broadcast: a lock was taken again by the thread that holds it (\(locked))")
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }

    /// `Mutex` inside this module is ``PlatformMutex``: the core's files
    /// `import Synchronization` and say `Mutex`, and a declaration in this
    /// module takes precedence over the imported one, so they get the lock
    /// ThreadSanitizer sees without a change at any call site.
    typealias Mutex<Value> = PlatformMutex<Value>
#else
    import Synchronization

    /// The lock guarding Broadcast's shared state: here `Synchronization.Mutex`.
    ///
    /// On Apple platforms `Mutex` is an `os_unfair_lock`, which
    /// ThreadSanitizer sees; on Linux the other branch of this file replaces
    /// it with a `pthread_mutex_t`, because there `Mutex` is a futex TSan does
    /// not see. It is `package`, for `BroadcastSystemBridge`; inside this
    /// module the code says `Mutex`.
    package typealias PlatformMutex<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif

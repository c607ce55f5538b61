/// Where a broadcast is running, as far as it can be known: the isolation the
/// compiler passed in (`#isolation`), and, for the main actor only, whether the
/// code runs on the main queue.
///
/// A listener registered on an actor is called synchronously only when the
/// broadcast runs on that actor; otherwise its delivery is scheduled there.
struct DeliveryContext {
    /// The caller's isolation, guaranteed by the compiler.
    let isolation: (any Actor)?
    private var cachedIsOnMainQueue: Bool?

    init(isolation: (any Actor)?) {
        self.isolation = isolation
    }

    /// Whether a listener of `actor` can be called right here.
    enum Placement {
        /// Call now: the compiler proved we are on `actor`.
        case verified
        /// Call now: we are on the main queue, so on the main actor's executor,
        /// but not necessarily inside a main-actor task, where a cast to an
        /// isolated conformance can fail (Linux, inside a plain
        /// `DispatchQueue.main.async` block). A failed cast is retried by a
        /// scheduled delivery instead of being taken as "does not conform".
        case mainQueue
        /// Schedule the call on `actor`.
        case elsewhere
    }

    mutating func placement(for actor: any Actor) -> Placement {
        if let isolation, isolation === actor { return .verified }
        guard actor === MainActor.shared else { return .elsewhere }
        if cachedIsOnMainQueue == nil { cachedIsOnMainQueue = MainQueueDetection.isOnMainQueue }
        return cachedIsOnMainQueue == true ? .mainQueue : .elsewhere
    }
}

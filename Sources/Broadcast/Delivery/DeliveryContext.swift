/// Where a broadcast (or a registration) is running, as far as it can be
/// known: the isolation the compiler passed in (`#isolation`), whether the
/// code runs on the main queue, and whether it runs inside a task.
///
/// Two questions are answered from these facts:
/// - can a listener of a given actor be called right here (else its call is
///   scheduled on that actor), and
/// - is a failed cast to the listener's protocol definitive here. It is not
///   always: a conformance isolated to the main actor
///   (`extension Screen: @MainActor P`) only casts inside a task running on
///   the main actor; in a plain `DispatchQueue.main.async` block the generic
///   cast fails on Linux even under `MainActor.assumeIsolated` (measured with
///   Swift 6.3). There, a failed cast is retried by a scheduled delivery,
///   which runs in such a task, instead of being taken as "does not conform".
struct DeliveryContext {
    /// The caller's isolation, guaranteed by the compiler.
    let isolation: (any Actor)?
    private var cachedIsOnMainQueue: Bool?

    init(isolation: (any Actor)?) {
        self.isolation = isolation
        // The main actor's own isolation proves the main queue without asking.
        if let isolation, isolation === MainActor.shared { cachedIsOnMainQueue = true }
    }

    /// Whether a listener registered on `actor` can be called right here.
    mutating func isRunning(on actor: any Actor) -> Bool {
        if let isolation, isolation === actor { return true }
        return actor === MainActor.shared && isOnMainQueue
    }

    /// Whether a cast that fails here, for a listener registered on `actor`,
    /// proves that the listener does not conform.
    mutating func castsAreDefinitive(on actor: any Actor) -> Bool {
        isRunning(on: actor) && withUnsafeCurrentTask { $0 != nil }
    }

    /// Whether the code runs on the main queue; asked at most once.
    var isOnMainQueue: Bool {
        mutating get {
            if let cachedIsOnMainQueue { return cachedIsOnMainQueue }
            let isOnMainQueue = MainQueueDetection.isOnMainQueue
            cachedIsOnMainQueue = isOnMainQueue
            return isOnMainQueue
        }
    }
}

import Foundation

/// Where a broadcast (or a registration, or a query) is running, as far as it
/// can be known: the isolation the compiler passed in (`#isolation`), whether
/// the code runs on the main queue or the main thread, and whether it runs
/// inside a task.
///
/// Two questions are answered from these facts:
/// - can a listener of a given actor be called right here (else its call is
///   scheduled on that actor), and
/// - is a failed cast to the listener's protocol definitive here.
///
/// The second follows the runtime's own rule for conformances isolated to a
/// global actor (`extension Screen: @MainActor P`): the generic cast succeeds
/// only where the runtime can prove it runs on that actor. Measured on Linux
/// with Swift 6.3.1 (`scripts/host-matrix` runs each case in a real process):
///
/// | where the code runs | cast for `@MainActor P` |
/// | --- | --- |
/// | the main thread, outside any task (top-level code, a main-queue block while the main thread runs a run loop) | succeeds |
/// | a task on the main actor (`Task { @MainActor in }`, an async `main`) | succeeds |
/// | a main-queue block after `dispatchMain()` (a worker thread services the main queue), even under `MainActor.assumeIsolated` | fails |
/// | any other thread, task or actor | fails |
///
/// For another global actor (`@MyActor P`) the cast succeeds only in a task
/// running on that actor. So a failed cast is definitive when the code runs
/// on the listener's actor *and* either runs in a task or, for the main actor,
/// on the main thread. Anywhere else a failed cast may mean "conforms only
/// over there", and the listener's call is scheduled on its actor, where the
/// question is settled once and for all (``KnownNonconformances``).
struct DeliveryContext {
    /// The caller's isolation, guaranteed by the compiler.
    let isolation: (any Actor)?
    private var cachedIsOnMainQueue: Bool?
    private var cachedIsInTask: Bool?
    private var cachedIsOnMainThread: Bool?

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
        guard isRunning(on: actor) else { return false }
        if isInTask { return true }
        // Outside a task, only the main actor can be proven, by the thread.
        return actor === MainActor.shared && isOnMainThread
    }

    /// Whether the code runs inside a task; asked at most once.
    var isInTask: Bool {
        // `withUnsafeCurrentTask`: the standard way to ask whether code runs
        // in a task; the task handle is only compared with nil, never kept
        // or used, which is what its documentation requires.
        mutating get { Self.answer(&cachedIsInTask) { withUnsafeCurrentTask { $0 != nil } } }
    }

    /// Whether the code runs on the process's main thread; asked at most once.
    var isOnMainThread: Bool {
        mutating get { Self.answer(&cachedIsOnMainThread) { Thread.isMainThread } }
    }

    /// Whether the code runs on the main queue; asked at most once.
    var isOnMainQueue: Bool {
        mutating get { Self.answer(&cachedIsOnMainQueue) { MainQueueDetection.isOnMainQueue } }
    }

    /// The answer kept in `cache`, asking `question` the first time: the
    /// facts do not change while one broadcast runs, and each costs a call
    /// into the runtime, Foundation or Dispatch.
    @inline(__always)
    private static func answer(_ cache: inout Bool?, _ question: () -> Bool) -> Bool {
        if let cache { return cache }
        let answer = question()
        cache = answer
        return answer
    }
}

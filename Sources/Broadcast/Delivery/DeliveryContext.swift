import Foundation

/// Where a broadcast, registration or query runs: the caller's `#isolation`,
/// and (asked at most once each) main queue, main thread, task.
///
/// The cast for `extension Screen: @MainActor P` succeeds only where the
/// runtime can prove the main actor: on the main thread outside a task, or in
/// a task on the main actor, not in a main-queue block run by another thread
/// after `dispatchMain()` (`scripts/host-matrix`); for another global actor,
/// only in a task on it. ``castsAreDefinitive(on:)`` is that rule.
struct DeliveryContext {
    let isolation: (any Actor)?
    private var cachedIsOnMainQueue: Bool?
    private var cachedIsInTask: Bool?
    private var cachedIsOnMainThread: Bool?
    private var cachedCastsAreDefinitiveOnMainActor: Bool?

    init(isolation: (any Actor)?) {
        self.isolation = isolation
        if let isolation, isolation === MainActor.shared { cachedIsOnMainQueue = true }
    }

    /// Whether a listener registered on `actor` can be called right here.
    mutating func isRunning(on actor: any Actor) -> Bool {
        if let isolation, isolation === actor { return true }
        return actor === MainActor.shared && isOnMainQueue
    }

    /// Whether a failed cast here proves a listener of `actor` does not conform.
    mutating func castsAreDefinitive(on actor: any Actor) -> Bool {
        guard isRunning(on: actor) else { return false }
        // The main thread is asked first: it costs a tenth of asking for
        // the current task, and answers every main-actor post made there.
        if actor === MainActor.shared && isOnMainThread { return true }
        return isInTask
    }

    /// ``castsAreDefinitive(on:)`` for the main actor, asked once: a post
    /// asks it for every listener called through a typed call proven there.
    var castsAreDefinitiveOnMainActor: Bool {
        mutating get {
            if let cachedCastsAreDefinitiveOnMainActor { return cachedCastsAreDefinitiveOnMainActor }
            let answer = castsAreDefinitive(on: MainActor.shared)
            cachedCastsAreDefinitiveOnMainActor = answer
            return answer
        }
    }

    var isInTask: Bool {
        // The task handle is only compared with nil, as `withUnsafeCurrentTask` requires.
        mutating get { Self.answer(&cachedIsInTask) { withUnsafeCurrentTask { $0 != nil } } }
    }

    var isOnMainThread: Bool {
        mutating get { Self.answer(&cachedIsOnMainThread) { MainThread.isCurrent } }
    }

    var isOnMainQueue: Bool {
        mutating get { Self.answer(&cachedIsOnMainQueue) { MainQueue.isCurrent } }
    }

    @inline(__always)
    private static func answer(_ cache: inout Bool?, _ question: () -> Bool) -> Bool {
        if let cache { return cache }
        let answer = question()
        cache = answer
        return answer
    }
}

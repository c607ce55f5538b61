import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization

/// The legacy notification the forwarding tests convert.
extension Notification.Name {
    static let scoreDidChange = Notification.Name("ForwardingTests.scoreDidChange")
    static let otherScoreDidChange = Notification.Name("ForwardingTests.otherScoreDidChange")
}

/// The typed event the forwarding tests convert it to.
struct ScoreChanged: Sendable, Equatable {
    let score: Int
}

/// Reads a `ScoreChanged` from a notification's `userInfo["score"]`; `nil`
/// for anything but an `Int`.
@Sendable func parseScore(_ notification: Notification) -> ScoreChanged? {
    guard let score = notification.userInfo?["score"] as? Int else { return nil }
    return ScoreChanged(score: score)
}

/// Posts the legacy notification carrying `score`.
func postScore(_ score: Int, to center: NotificationCenter, object: AnyObject? = nil) {
    center.post(name: .scoreDidChange, object: object, userInfo: ["score": score])
}

/// A thread-safe log of what spies saw, for assertions afterwards.
///
/// Guarded by an `NSLock` rather than `Synchronization.Mutex`, whose futex
/// ThreadSanitizer cannot see on Linux: these suites run under TSan.
final class Log<Entry: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only read or written while `lock` is
    // held.
    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }
    var all: [Entry] { lock.withLock { entries } }
    var count: Int { lock.withLock { entries.count } }
}

/// A listener protocol the protocol-broadcast form forwards to.
protocol ScoreListener: AnyObject {
    func scoreChanged(_ score: Int)
}

extension Broadcaster {
    func scoreChanged(_ score: Int) {
        broadcast(to: (any ScoreListener).self) { $0.scoreChanged(score) }
    }
}

/// A non-isolated score listener that records each score and whether it ran
/// on the main queue.
final class ScoreSpy: ScoreListener, Sendable {
    let scores = Log<Int>()
    let onMainQueue = Log<Bool>()

    init() { MainQueue.prepare() }

    func scoreChanged(_ score: Int) {
        onMainQueue.append(MainQueue.isCurrent)
        scores.append(score)
    }
}

/// A main-actor score listener, with a conformance isolated to the main
/// actor.
@MainActor final class ScoreScreen {
    private(set) var scores: [Int] = []
    init() {}
}

extension ScoreScreen: @MainActor ScoreListener {
    func scoreChanged(_ score: Int) { scores.append(score) }
}

/// Runs `body` on a new thread (not the main one, outside any task) and
/// returns once it has finished.
func onNewThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}

/// Runs `body` on a new thread and blocks the calling thread until it has
/// finished: for code that must stay synchronous (inside an observer).
func onNewThreadBlocking(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    done.wait()
}

import Dispatch

/// Runs `body` on `count` threads at once, each given its number, released
/// together once every thread has started; returns `true` once every one has
/// returned, or `false` if one has not within `limit` (a deadlock fails the
/// test then, not at its time limit).
///
/// Released together so that they race: threads started one after another
/// on two cores could run their loops in turn.
func onThreadsReleasedTogether(
    count: Int, within limit: Duration = .seconds(20), _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
    let ready = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for thread in 0..<count {
        ready.enter()
        done.enter()
        DispatchQueue.global().async {
            ready.leave()
            start.wait()
            body(thread)
            done.leave()
        }
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    let milliseconds = Int(limit.components.seconds * 1000)
    return await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success)
        }
    }
}

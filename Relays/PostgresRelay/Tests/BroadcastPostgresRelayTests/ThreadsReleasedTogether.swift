import Dispatch

/// Runs `body` on `count` threads at once, each given its number, released
/// together once every thread has started; returns once every one has
/// returned.
///
/// Released together so that they race: threads started one after another
/// on two cores could run their loops in turn.
func onThreadsReleasedTogether(count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
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
    await withCheckedContinuation { continuation in
        done.notify(queue: .global()) { continuation.resume() }
    }
}

import Foundation

/// What a spy saw, in order, and a way to wait, with a deadline, until it
/// has seen enough.
///
/// Guarded by an `NSLock`, which ThreadSanitizer sees on Linux.
final class Collected<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `elements`, `waiters` and `nextWaiter` are only
    // read or written while `lock` is held.
    private let lock = NSLock()
    private var elements: [Element] = []
    private var waiters: [Int: Waiter] = [:]
    private var nextWaiter = 0

    private struct Waiter {
        let isSatisfied: ([Element]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    var all: [Element] {
        lock.withLock { elements }
    }

    func append(_ element: Element) {
        let satisfied: [Waiter] = lock.withLock {
            elements.append(element)
            let ready = waiters.filter { $0.value.isSatisfied(elements) }
            for key in ready.keys { waiters[key] = nil }
            return Array(ready.values)
        }
        for waiter in satisfied { waiter.continuation.resume() }
    }

    /// Waits until `isSatisfied` holds for what was seen, and returns it;
    /// throws ``TimedOut`` after `limit`.
    @discardableResult
    func wait(
        _ what: String, within limit: Duration = .seconds(10),
        until isSatisfied: @escaping @Sendable ([Element]) -> Bool
    ) async throws -> [Element] {
        let satisfied = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.waitUntil(isSatisfied)
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
        let seen = all
        guard satisfied || isSatisfied(seen) else {
            throw TimedOut(description: "Timed out after \(limit) waiting for \(what); saw \(seen)")
        }
        return seen
    }

    private func waitUntil(_ isSatisfied: @escaping ([Element]) -> Bool) async {
        let key = lock.withLock {
            defer { nextWaiter += 1 }
            return nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock `onCancel` takes: either it finds
                // the waiter, or this sees the cancellation.
                let ready = lock.withLock {
                    if isSatisfied(elements) || Task.isCancelled { return true }
                    waiters[key] = Waiter(isSatisfied: isSatisfied, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = lock.withLock { waiters.removeValue(forKey: key) }
            waiter?.continuation.resume()
        }
    }
}

/// A wait whose deadline passed.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Runs `operation`, failing with ``TimedOut`` if it takes longer
/// than `limit` (`operation` must end when cancelled).
func within<Value: Sendable>(
    _ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() ?? nil else {
            throw TimedOut(description: "Timed out after \(limit) waiting for \(what)")
        }
        return value
    }
}

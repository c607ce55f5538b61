import Foundation
import Synchronization

/// Values in progress on the current thread, innermost last: what the system
/// bridge and the PostgreSQL relay record while they cross between a
/// broadcaster and the outside, to recognise their own echo.
///
/// Kept in the thread's dictionary, which only that thread reads or writes.
/// Per thread, not task-local: a task-local value would be inherited by the
/// tasks a listener starts, and their later, unrelated posts would be taken
/// for the crossing.
package final class ThreadStack<Element>: Sendable {
    private let key: String
    /// How many values are in progress on all threads together.
    ///
    /// A thread's dictionary costs about a microsecond to read, and most
    /// reads happen where nothing is in progress anywhere: then there is
    /// nothing to read. A thread sees its own values counted, since it counts
    /// them itself before recording them.
    private let inProgressCount = Atomic<Int>(0)

    /// A stack kept under `key` in each thread's dictionary: one key per stack.
    package init(key: String) {
        self.key = key
    }

    /// The values in progress on the current thread, innermost last.
    package var current: [Element] {
        guard inProgressCount.load(ordering: .relaxed) > 0 else { return [] }
        return storage?.elements ?? []
    }

    /// Runs `body` with `element` in progress on the current thread.
    package func with<Result>(_ element: Element, _ body: () throws -> Result) rethrows -> Result {
        let stack = storage ?? makeStorage()
        inProgressCount.add(1, ordering: .relaxed)
        stack.elements.append(element)
        defer {
            stack.elements.removeLast()
            inProgressCount.subtract(1, ordering: .relaxed)
        }
        return try body()
    }

    private final class Storage {
        var elements: [Element] = []
    }

    /// The current thread's stack; nil before its first value.
    private var storage: Storage? {
        Thread.current.threadDictionary[key] as? Storage
    }

    private func makeStorage() -> Storage {
        let storage = Storage()
        Thread.current.threadDictionary[key] = storage
        return storage
    }
}

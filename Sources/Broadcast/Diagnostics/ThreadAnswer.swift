#if DEBUG
    import Foundation

    /// Debug builds only: casts made on a new thread, outside any task and
    /// any actor, where no isolated conformance can be used; for
    /// ``IsolatedConformanceCheck``.
    final class ThreadAnswer: @unchecked Sendable {
        // @unchecked Sendable: `answers` is only read or written while
        // `condition` is locked. A pthread condition rather than a
        // semaphore: ThreadSanitizer sees its ordering on Linux.
        private let condition = NSCondition()
        private var answers: [Bool]?

        /// Whether each of `objects` is a `P` on a new thread.
        ///
        /// Waits for the answer. The caller holds `objects` meanwhile, and
        /// no lock.
        static func conform<P>(_ objects: [AnyObject], as _: P.Type) -> [Bool] {
            let listeners = objects.map(WeakListener.init)
            let answer = ThreadAnswer()
            Thread.detachNewThread {
                answer.set(listeners.map { $0.object.map { Conformance.conforms($0, to: P.self) } ?? true })
            }
            return answer.wait()
        }

        private func set(_ answers: [Bool]) {
            condition.lock()
            self.answers = answers
            condition.signal()
            condition.unlock()
        }

        private func wait() -> [Bool] {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let answers { return answers }
                condition.wait()
            }
        }
    }
#endif

import Foundation
import Synchronization

/// Two threads that race over a row of fresh subjects, released together and
/// kept in step.
///
/// Before its operation on subject `i`, each spins until the other has
/// reached `i`, so that both operate on the same subject at the same moment
/// on two cores; the first thread then spins a little longer, a count that
/// varies with `i` up to `sweep`, so that over a row its operation lands at
/// every point of the other's, not only at its start: a small sweep for two
/// equal operations, a few thousand spins (microseconds) against an
/// operation that reaches the lock late, such as a registration, which
/// allocates first. A race run as separate rounds (a thread pool per
/// round) mostly runs its threads one after the other on two cores.
///
/// A subject is used once (one post, one registration), so a lost state
/// stays lost: nothing later repairs it before the test looks.
enum PacedRace {
    /// Runs `first(i)` on a new thread and `second(i)` on the calling thread
    /// for each `i` in `0..<count`, each `i` started by both at once.
    static func run(
        count: Int, sweep: Int = 128, _ first: @escaping @Sendable (Int) -> Void, _ second: (Int) -> Void
    ) {
        let pace = Pace()
        let done = DispatchSemaphore(value: 0)
        Thread {
            for index in 0..<count {
                pace.first.store(index, ordering: .releasing)
                pace.waitUntil(pace.second, reaches: index)
                pace.offset(by: index * 37 % sweep)
                first(index)
            }
            done.signal()
        }.start()
        for index in 0..<count {
            pace.second.store(index, ordering: .releasing)
            pace.waitUntil(pace.first, reaches: index)
            second(index)
        }
        done.wait()
    }

    /// ``run(count:sweep:_:_:)`` with both operations on threads of their
    /// own: the awaiting test holds no thread of the concurrency pool, which
    /// the other tests of a parallel run need (two cores give it two).
    static func race(
        count: Int, sweep: Int = 128, _ first: @escaping @Sendable (Int) -> Void,
        _ second: @escaping @Sendable (Int) -> Void
    ) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread {
                run(count: count, sweep: sweep, first, second)
                finished.resume()
            }.start()
        }
    }

    /// Makes and races rows of subjects until `budget` passes or `check`,
    /// called after each row, returns false (a failure was seen): a test that
    /// fails stops at once, one that passes stops at its budget.
    static func repeatRows<Row>(
        budget: Duration, make: () -> Row, race: (Row) async -> Void, check: (Row) -> Bool
    ) async {
        let deadline = ContinuousClock.now + budget
        repeat {
            let row = make()
            await race(row)
            guard check(row) else { return }
        } while ContinuousClock.now < deadline
    }

    private final class Pace: Sendable {
        let first = Atomic<Int>(-1)
        let second = Atomic<Int>(-1)

        /// Spins `count` times: a delay measured in work, not in time.
        func offset(by count: Int) {
            var spins = 0
            while spins < count { spins = first.load(ordering: .relaxed) >= -1 ? spins + 1 : spins }
        }

        func waitUntil(_ other: borrowing Atomic<Int>, reaches index: Int) {
            var spins = 0
            while other.load(ordering: .acquiring) < index {
                spins += 1
                // Two cores shared with other work: let the other thread run
                // if it was preempted, rather than spin through a time slice.
                if spins % 256 == 0 { sched_yield() }
            }
        }
    }
}

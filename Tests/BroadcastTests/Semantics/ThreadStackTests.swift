import Broadcast
import Foundation
import Testing

/// The record the system bridge and the PostgreSQL relay keep while they
/// cross between a broadcaster and the outside.
///
/// A value is in progress on its own thread while its body runs, and nowhere
/// else. A crossing missed there sends a received event back out; one seen
/// on another thread takes an unrelated post for the received event.
@Suite("Values in progress on a thread", .timeLimit(.minutes(1)))
struct ThreadStackTests {
    @Test func aValueIsInProgressOnItsThreadWhileItsBodyRuns() {
        let stack = ThreadStack<Int>(key: "ThreadStackTests.nested")
        #expect(stack.current == [])
        let seen = stack.with(1) {
            let inner = stack.with(2) { stack.current }
            return [stack.current, inner]
        }
        #expect(seen == [[1], [1, 2]])
        #expect(stack.current == [])
    }

    @Test func anotherThreadSeesNoneOfAThreadsValues() async {
        let stack = ThreadStack<Int>(key: "ThreadStackTests.otherThread")
        let seenElsewhere = await onNewThread {
            stack.with(1) {
                // The other thread reads while this one's value is in progress.
                let seen = Locked<[Int]?>(nil)
                let read = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    seen.withLock { $0 = stack.current }
                    read.signal()
                }
                read.wait()
                return seen.withLock { $0 }
            }
        }
        #expect(seenElsewhere == [])
    }

    /// Each thread's value is in progress on it, however the other thread's
    /// values start and end meanwhile: what skips the look-up when nothing
    /// is in progress counts every thread's values.
    @Test func aThreadSeesItsValueWhileAnotherThreadsValuesStartAndEnd() async {
        let stack = ThreadStack<Int>(key: "ThreadStackTests.race")
        // The values a thread did not see as its own, up to a few.
        let missed = Locked<[Int]>([])
        await PacedRace.repeatRows(
            budget: .milliseconds(300),
            make: { 2_000 },
            race: { count in
                await PacedRace.race(
                    count: count,
                    { index in
                        stack.with(index) {
                            if stack.current != [index] { missed.withLock { if $0.count < 5 { $0.append(index) } } }
                        }
                    },
                    { index in
                        stack.with(-index - 1) {
                            if stack.current != [-index - 1] {
                                missed.withLock { if $0.count < 5 { $0.append(-index - 1) } }
                            }
                        }
                    })
            },
            check: { _ in missed.withLock { $0.isEmpty } })
        #expect(missed.withLock { $0 } == [])
    }
}

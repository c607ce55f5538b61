import BroadcastTesting
import Foundation
import Testing

/// A wait that fails: recorded at the wait's line, never before its count
/// arrived, and at its own deadline, not at the test's time limit.
@Suite("A failing wait", .timeLimit(.minutes(1)))
struct WaitFailureTests {
    /// Well over a 100-millisecond deadline, well under the time limit: a
    /// wait that ignores its timeout fails here, within seconds.
    static let backstop = 30

    @Test func isRecordedAtTheWaitsLine() async throws {
        let recorder = BroadcastRecorder<Int>()
        recorder.record(1)

        let line = #line + 2  // the line of the wait below
        try await withKnownIssue {
            try await recorder.waitForValues(count: 2, timeout: .milliseconds(50))
        } matching: { issue in
            issue.sourceLocation?.fileID == "BroadcastTestingTests/WaitFailureTests.swift"
                && issue.sourceLocation?.line == line
        }
    }

    @Test func isOneIssueOnly() async throws {
        let recorder = BroadcastRecorder<Int>()
        let issues = BroadcastRecorder<String>()
        try await withKnownIssue {
            try await recorder.waitForValues(count: 1, timeout: .milliseconds(50))
        } matching: { issue in
            issues.record("\(issue)")
            return true
        }
        #expect(issues.values.count == 1, "\(issues.values)")
    }

    /// Two values of three recorded, before and after the waits suspend:
    /// every wait ends at its deadline; none returns a value early.
    @Test func aWaitForThreeDoesNotReturnAtTwo() async {
        let recorder = BroadcastRecorder<Int>()
        await withKnownIssue {
            let waits = (0..<8).map { _ in
                Task { try await recorder.waitForValues(count: 3, timeout: .seconds(2)) }
            }
            recorder.record(1)
            for _ in 0..<100 { await Task.yield() }
            recorder.record(2)

            for wait in waits {
                let result = await ending(within: Self.backstop) { await wait.result }
                #expect(result != nil, "the wait ended by its deadline")
                #expect(result.map { (try? $0.get()) == nil } == true, "a wait for three returned with two values")
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("expected 3 values within 2.0 seconds") }
        }
        #expect(recorder.values == [1, 2])
    }

    @Test func aWaitForMoreThanArrivedFailsAtItsDeadlineSayingWhatArrived() async throws {
        let recorder = BroadcastRecorder<Int>()
        recorder.record(1)
        recorder.record(2)

        let ended = await ending(within: Self.backstop) {
            try? await withKnownIssue {
                try await recorder.waitForValues(count: 3, timeout: .milliseconds(100), fileID: "App/W.swift", line: 3)
            } matching: { issue in
                issue.comments.map(\.rawValue) == [
                    "App/W.swift:3: expected 3 values within 0.1 seconds; 2 arrived: [1, 2]"
                ]
            }
            return true
        }
        #expect(ended == true, "the wait ended by its deadline")
    }

    @Test func aWaitForWhatNeverArrivesEndsAtItsTimeoutNotLater() async {
        let recorder = BroadcastRecorder<Int>()
        let clock = ContinuousClock()
        let start = clock.now

        let ended = await ending(within: Self.backstop) {
            await withKnownIssue {
                try await recorder.waitForValues(count: 1, timeout: .milliseconds(100))
            }
            return clock.now - start
        }
        #expect(ended != nil, "the wait ended by its deadline")
        #expect(ended.map { $0 >= .milliseconds(100) } == true)
    }

    /// Well over a short deadline, half the default of 10 seconds: a wait
    /// that ignored its own deadline for the default one ends after it.
    static let reference = Duration.seconds(5)

    /// Which of a wait that fails and a plain sleep of ``reference``,
    /// started together, ends first, and when the wait ended.
    ///
    /// Compared with a sleep rather than timed alone: when the whole suite
    /// runs on two cores, a job can wait its turn for 20 seconds and more,
    /// and a wait that ends at its own deadline still ends long after it.
    /// The sleep's timer fires after the wait's, and the sleep then yields
    /// its turn 50 times, more jobs than the failing wait still runs, so
    /// that the wait, queued first, ends first however late both run.
    static func firstToEnd(
        ofWaitFor count: Int, timeout: Duration, on recorder: BroadcastRecorder<Int>
    ) async -> (first: String, waitEndedAfter: Duration?) {
        let clock = ContinuousClock()
        let start = clock.now
        let waitEnded = BroadcastRecorder<Duration>()
        let first = await withTaskGroup(of: String.self) { group in
            group.addTask {
                await withKnownIssue {
                    try await recorder.waitForValues(count: count, timeout: timeout)
                }
                waitEnded.record(clock.now - start)
                return "wait"
            }
            group.addTask {
                try? await Task.sleep(for: Self.reference)
                for _ in 0..<50 { await Task.yield() }
                return "sleep of \(Self.reference)"
            }
            let first = await group.next() ?? "neither"
            group.cancelAll()
            return first
        }
        return (first, waitEnded.values.first)
    }

    @Test func aShortWaitEndsAtItsOwnDeadlineNotTheDefaults() async {
        let recorder = BroadcastRecorder<Int>()

        let (first, waitEndedAfter) = await Self.firstToEnd(
            ofWaitFor: 1, timeout: .milliseconds(200), on: recorder)

        #expect(first == "wait")
        #expect(
            waitEndedAfter.map { $0 >= .milliseconds(200) } == true, "ended after \(String(describing: waitEndedAfter))"
        )
    }

    @Test func aWaitWithNoTimeLeftFailsAtOnce() async {
        let recorder = BroadcastRecorder<Int>()
        recorder.record(1)

        let (first, _) = await Self.firstToEnd(ofWaitFor: 2, timeout: .zero, on: recorder)

        #expect(first == "wait")
    }

    /// Values recorded one by one on another thread, one short of the count:
    /// every wait ends at its deadline, never with them.
    ///
    /// The test task yields before each value, more in each round, so that
    /// in most rounds the waits are suspended before the values arrive and
    /// in some they are not: the value that completes a wait is then
    /// recorded while it waits, or before it starts.
    @Test(arguments: 0..<8)
    func aWaitForThreeDoesNotReturnAtTwoRecordedOnAnotherThread(round: Int) async {
        let recorder = BroadcastRecorder<Int>()
        await withKnownIssue {
            let waits = (0..<4).map { _ in
                Task { try await recorder.waitForValues(count: 3, timeout: .seconds(2)) }
            }
            for value in 1...2 {
                for _ in 0..<(round * 25) { await Task.yield() }
                await onAnotherThread { recorder.record(value) }
            }
            for wait in waits {
                let result = await ending(within: Self.backstop) { await wait.result }
                #expect(result != nil, "the wait ended by its deadline")
                #expect(result.map { (try? $0.get()) == nil } == true, "a wait for three returned with two values")
            }
        } matching: { issue in
            // Under load a deadline may pass before the values arrive.
            issue.comments.contains { $0.rawValue.contains("expected 3 values within 2.0 seconds;") }
        }
        #expect(recorder.values == [1, 2])
    }
}

/// Runs `body` on a new thread, outside every task; returns when it has.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread.detachNewThread {
            body()
            done.resume()
        }
    }
}

import BroadcastTesting
import Testing

@Suite("Waiting for values", .timeLimit(.minutes(1)))
struct WaitTests {
    /// A deadline no passing test reaches: a wait that ends before it ended
    /// because its values arrived or its task was cancelled.
    static let farDeadline = Duration.seconds(50)

    /// Well under `farDeadline`, well over any wait that ends when it should.
    static let promptly = Duration.seconds(20)

    @Test func returnsAtOnceWhenTheValuesAreAlreadyThere() async throws {
        let recorder = BroadcastRecorder<String>()
        recorder.record("a")
        recorder.record("b")

        try await recorder.waitForValues(count: 2, timeout: .zero)

        #expect(recorder.values == ["a", "b"])
    }

    @Test(arguments: 0..<20)
    func returnsAsSoonAsTheLastValueIsRecorded(round: Int) async throws {
        let recorder = BroadcastRecorder<Int>()
        let clock = ContinuousClock()
        let start = clock.now
        let waiter = Task { try await recorder.waitForValues(count: 3, timeout: Self.farDeadline) }

        recorder.record(1)
        recorder.record(2)
        Task.detached { recorder.record(3) }
        try await waiter.value

        #expect(clock.now - start < Self.promptly)
        #expect(recorder.values.count == 3)
    }

    @Test func severalWaitsEachEndWhenTheirCountArrives() async throws {
        let recorder = BroadcastRecorder<Int>()
        let forOne = Task { try await recorder.waitForValues(count: 1, timeout: Self.farDeadline) }
        let forThree = Task { try await recorder.waitForValues(count: 3, timeout: Self.farDeadline) }

        recorder.record(1)
        try await forOne.value
        recorder.record(2)
        recorder.record(3)
        try await forThree.value

        #expect(recorder.values == [1, 2, 3])
    }

    @Test func failsAtTheDeadlineSayingWhereWhatWasExpectedAndWhatArrived() async throws {
        let recorder = BroadcastRecorder<String>()
        recorder.record("Hello")
        let clock = ContinuousClock()
        let start = clock.now

        let line = #line + 2  // the line of the wait below
        try await withKnownIssue {
            try await recorder.waitForValues(count: 2, timeout: .milliseconds(100))
        } matching: { issue in
            issue.comments.map(\.rawValue)
                == [
                    "BroadcastTestingTests/WaitTests.swift:\(line): expected 2 values within 0.1 seconds; 1 arrived: [\"Hello\"]"
                ]
        }
        #expect(clock.now - start >= .milliseconds(100))
        #expect(clock.now - start < Self.promptly)
    }

    @Test func saysSoWhenNothingArrived() async throws {
        let recorder = BroadcastRecorder<UserSignedIn>()

        try await withKnownIssue {
            try await recorder.waitForValues(
                count: 1, timeout: .milliseconds(50), fileID: "AppTests/Sign.swift", line: 7)
        } matching: { issue in
            issue.comments.map(\.rawValue)
                == ["AppTests/Sign.swift:7: expected 1 value within 0.05 seconds; none arrived"]
        }
    }

    @Test(arguments: 0..<20)
    func cancellingTheWaitingTaskEndsTheWait(round: Int) async {
        let recorder = BroadcastRecorder<Int>()
        let clock = ContinuousClock()
        let start = clock.now
        let waiter = Task { try await recorder.waitForValues(count: 1, timeout: Self.farDeadline) }

        if round.isMultiple(of: 2) { await Task.yield() }
        waiter.cancel()
        let result = await waiter.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.now - start < Self.promptly)
    }

    @Test func aWaitStartedInACancelledTaskEndsAtOnce() async {
        let recorder = BroadcastRecorder<Int>()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await recorder.waitForValues(count: 1, timeout: Self.farDeadline)
        }

        let result = await waiter.result

        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func valuesRecordedAfterACancelledWaitAreStillKept() async {
        let recorder = BroadcastRecorder<Int>()
        let waiter = Task { try await recorder.waitForValues(count: 2, timeout: Self.farDeadline) }
        waiter.cancel()
        _ = await waiter.result

        recorder.record(1)
        recorder.record(2)

        #expect(recorder.values == [1, 2])
    }

    /// Values recorded one by one on another thread while the wait waits:
    /// when it returns, all `count` of them are there (a wait that returned
    /// one value early would read two, in the rounds where it runs before
    /// the third is recorded).
    @Test(arguments: 0..<20)
    func returnsOnlyOnceItsCountIsRecordedOnAnotherThread(round: Int) async throws {
        let recorder = BroadcastRecorder<Int>()
        let waiter = Task { () async throws -> Int in
            try await recorder.waitForValues(count: 3, timeout: Self.farDeadline)
            return recorder.values.count
        }

        for value in 1...3 {
            // More in each round: the wait is suspended before the values
            // arrive in most rounds, and has time to run after each.
            for _ in 0..<(round * 10) { await Task.yield() }
            await onAnotherThread { recorder.record(value) }
        }
        let countAtReturn = try await waiter.value

        #expect(countAtReturn == 3)
    }
}

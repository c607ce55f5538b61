import Broadcast
import Synchronization

/// The values a spy received, in the order they arrived, safe to record from
/// any thread, and a wait for them with a deadline.
///
/// A spy listener keeps its state in one line:
///
/// ```swift
/// nonisolated final class PostSpy: PostCreationListener, Sendable {
///     let titles = BroadcastRecorder<String>()
///
///     func postCreated(_ post: Post) { titles.record(post.title) }
/// }
/// ```
///
/// A closure handler or a `for await` loop records the same way, and a test
/// reads ``values`` after the code under test has run. When the values
/// arrive later — on another actor, or in a loop running in its own task —
/// the test awaits them with
/// ``waitForValues(count:timeout:fileID:filePath:line:column:)``, which
/// resumes as soon as they are recorded and fails the test at its line, with
/// a message saying what arrived, at its deadline.
///
/// The lock is one ThreadSanitizer sees on every platform (a `pthread`
/// mutex on Linux, `Mutex` on Apple platforms), so a test run with
/// `--sanitize=thread` gets no report from the recorder.
public final class BroadcastRecorder<Value: Sendable>: Sendable {
    private let state = PlatformMutex(RecorderState<Value>())

    /// Creates an empty recorder.
    public init() {}

    /// The values recorded so far, in the order they were recorded.
    public var values: [Value] { state.withLock { $0.values } }

    /// Appends `value` to ``values``, and ends the waits it completes.
    ///
    /// - Parameter value: What the spy received.
    public func record(_ value: Value) {
        let completed = state.withLock { $0.append(value) }
        for wait in completed {
            wait.resume()
        }
    }

    /// Returns once `count` values have been recorded, or fails the test at
    /// the wait's line when `timeout` passes first.
    ///
    /// It returns at once if they are already there, and otherwise as soon as
    /// the call to ``record(_:)`` that completes them returns: it never
    /// polls. At the deadline it fails with a message saying where the wait
    /// is written, the count expected and the values that arrived, for
    /// example `AppTests/FeedTests.swift:42: expected 2 values within 10.0
    /// seconds; 1 arrived: ["Hello"]`:
    ///
    /// - In a Swift Testing test, the issue is recorded at the wait's line,
    ///   and the error thrown ends the test without a second issue (as a
    ///   failed `#require` does; inside `withKnownIssue`, the issue is the
    ///   known one).
    /// - In an XCTest test, the failure is recorded at the wait's file and
    ///   line, and the error thrown carries the message.
    /// - Outside any test, the error thrown carries the message.
    ///
    /// ```swift
    /// let names = BroadcastRecorder<String>()
    /// let signIns = broadcaster.events(of: UserSignedIn.self)
    /// let reader = Task {
    ///     for await event in signIns { names.record(event.name) }
    /// }
    /// broadcaster.post(UserSignedIn(name: "Ada"))
    /// try await names.waitForValues(count: 1)
    /// reader.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - count: How many values, counted from the first one recorded.
    ///   - timeout: The deadline, from the call.
    ///   - fileID: The file the wait is written in, for the message and the
    ///     test's failure.
    ///   - filePath: The path of that file, for the test's failure.
    ///   - line: The line the wait is written on.
    ///   - column: The column the wait is written at.
    /// - Throws: An error when `timeout` passes first, after the test's
    ///   failure is recorded; `CancellationError` when the waiting task is
    ///   cancelled first.
    public func waitForValues(
        count: Int,
        timeout: Duration = .seconds(10),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async throws {
        if values.count >= count { return }
        let place = WaitPlace(fileID: fileID, filePath: filePath, line: line, column: column)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.arrival(of: count) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw RecorderTimeout(expected: count, arrived: self.values, timeout: timeout, at: place)
                }
                // The first to finish decides; the other is cancelled and ends at once.
                _ = try await group.next()
                group.cancelAll()
            }
        } catch let timeout as RecorderTimeout {
            try timeout.fail(at: place)
        }
    }

    /// Returns once `count` values have been recorded; throws
    /// `CancellationError` if the task is cancelled first.
    private func arrival(of count: Int) async throws {
        let wait = state.withLock { $0.announceWait() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                switch state.withLock({ $0.suspend(wait, until: count, continuation) }) {
                case .arrived: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .suspended: break
                }
            }
        } onCancel: {
            state.withLock { $0.cancel(wait) }?.resume(throwing: CancellationError())
        }
    }
}

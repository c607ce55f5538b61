import Foundation
import NIOConcurrencyHelpers

/// A process this one started, its output going to a log file, and a way
/// to wait, with a deadline, for it to exit.
final class ChildProcess: Sendable {
    private let process: Process
    private let log: URL
    private let state = ExitState(State())

    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Shared with the termination handler.
    private typealias ExitState = NIOLockedValueBox<State>

    /// A wait whose deadline passed.
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    init(_ process: Process, log: URL) throws {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        self.process = process
        self.log = log
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [state] process in
            let waiters = state.withLockedValue { state in
                state.status = process.terminationStatus
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        defer { try? output.close() }
        try process.run()
    }

    /// The exit status, once it has exited.
    var status: Int32? { state.withLockedValue { $0.status } }

    /// What it printed so far.
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until it exits; throws if it has not within `limit`.
    func exit(within limit: Duration) async throws -> Int32 {
        let exited = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let hasExited = self.state.withLockedValue { state in
                        if state.status != nil { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if hasExited { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { process.terminate() }  // ends the waiter too
            await group.waitForAll()
            return first
        }
        guard exited, let status else {
            throw TimedOut(
                description: "\(process.executableURL?.lastPathComponent ?? "a process") did not exit "
                    + "within \(limit): \(output)")
        }
        return status
    }

    /// Waits until it exits; throws if it fails or has not exited within
    /// `limit`.
    func succeed(within limit: Duration) async throws {
        let status = try await exit(within: limit)
        guard status == 0 else {
            throw PostgresTestServer.Failure(
                "\(process.arguments?.joined(separator: " ") ?? "") exited with \(status): \(output)")
        }
    }
}

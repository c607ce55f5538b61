/// Checks `condition` every 10 ms until it holds, for state that reports
/// no change (a relay's counts and status); throws ``TimedOut`` after
/// `limit`.
func eventually(
    _ what: String, within limit: Duration = .seconds(15), _ condition: @escaping @Sendable () -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else {
            throw TimedOut(description: "Timed out after \(limit) waiting for \(what)")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// ``eventually(_:within:_:)`` for a condition that asks the server.
func eventually(
    _ what: String, within limit: Duration = .seconds(15), asking condition: @escaping @Sendable () async -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            throw TimedOut(description: "Timed out after \(limit) waiting for \(what)")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

import Broadcast
import BroadcastPostgresRelay
import Logging
import RelayTestSupport

/// How long events stop arriving when the server restarts under a steady
/// stream of posts, and whether every post is accounted for.
struct RestartMeasurement: CustomStringConvertible {
    /// From the restart's start (`pg_ctl stop -m fast`) to the first event
    /// delivered after the longest pause in arrivals.
    let fromRestart: Duration
    /// From the moment the restart's probe connected to the restarted
    /// server to that event (negative if the relay was back first).
    let fromServerBack: Duration
    /// Sent + not sent + maybe lost, against the events posted.
    let accounted: Int
    let posted: Int

    var description: String {
        "first event \(milliseconds(fromRestart)) ms after the restart began, "
            + "\(milliseconds(fromServerBack)) ms after the server accepted connections; "
            + "\(accounted) of \(posted) posts accounted for"
    }
}

func milliseconds(_ duration: Duration) -> Int {
    Int(Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15)
}

/// Restarts the server (`pg_ctl restart -m fast`) while the sending instance
/// posts an event every millisecond, and times the first delivery after it.
func measureRestart(on server: PostgresTestServer, logger: Logger) async throws -> RestartMeasurement {
    let pair = try await RelayPair.start(connecting: server.connection, logger: logger)
    let posting = Task {
        var sequence = 0
        while !Task.isCancelled {
            pair.sending.post(BenchmarkEvent(sequence: sequence))
            sequence += 1
            try? await Task.sleep(for: .milliseconds(1))
        }
        return sequence
    }
    var iterator = pair.arrivals.stream.makeAsyncIterator()
    do {
        // The stream flows before the restart.
        guard await iterator.next() != nil else { throw BenchmarkFailure("no event arrived before the restart") }
        let restartBegan = ContinuousClock.now
        try await server.restart(.fast)
        let serverBack = ContinuousClock.now
        // The gap is the longest pause between arrivals from the restart's
        // start to 200 arrivals after the server is back (the relay may
        // reconnect a little before the restart's own probe connects).
        var gapEnd: ContinuousClock.Instant?
        var longest = Duration.zero
        var previous = restartBegan
        var afterBack = 0
        while afterBack < 200, let arrival = await iterator.next() {
            if arrival.at - previous > longest { (longest, gapEnd) = (arrival.at - previous, arrival.at) }
            previous = arrival.at
            if arrival.at > serverBack { afterBack += 1 }
        }
        let posted = await stopPosting(posting)
        try await pair.stop()
        guard let gapEnd else { throw BenchmarkFailure("the arrivals ended") }
        let counts = pair.sender.counts
        return RestartMeasurement(
            fromRestart: gapEnd - restartBegan, fromServerBack: gapEnd - serverBack,
            accounted: counts.sent + counts.notSent + counts.mayBeLost, posted: posted)
    } catch {
        _ = await stopPosting(posting)
        try? await pair.stop()
        throw error
    }
}

private func stopPosting(_ posting: Task<Int, Never>) async -> Int {
    posting.cancel()
    return await posting.value
}

import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport

/// The relay's events per second in a burst: `post` on one instance's
/// broadcaster, a handler on the other's.
func measureRelayBurst(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws -> Double {
    try await withRelay(connecting: server.connection, logger: logger) { relay in
        try await measureBurst(relay, size: size)
    }
}

/// Runs `body` with the relay's side running on `configuration`'s database:
/// two instances, events posted on one and handled on the other; throws if
/// the relay refused or skipped an event.
func withRelay<Result>(
    connecting configuration: PostgresConnection.Configuration, logger: Logger,
    _ body: (BenchmarkSide) async throws -> Result
) async throws -> Result {
    let pair = try await RelayPair.start(connecting: configuration, logger: logger)
    let side = BenchmarkSide(arrivals: pair.arrivals) { pair.sending.post(BenchmarkEvent(sequence: $0)) }
    let result: Result
    do {
        result = try await body(side)
    } catch {
        try? await pair.stop()
        throw error
    }
    try await pair.stop()
    guard pair.sender.counts.notSent == 0, pair.receiver.counts.skipped == 0 else {
        throw BenchmarkFailure("the relay refused or skipped events: \(pair.sender.counts), \(pair.receiver.counts)")
    }
    return result
}

/// The relay's latency for events of `byteCount` bytes of text, too large
/// for a notification: `count` events, one in flight at a time, after one to
/// warm up; sorted.
func measureLargeEvents(on server: PostgresTestServer, byteCount: Int, count: Int, logger: Logger) async throws
    -> [Duration]
{
    let pair = try await RelayPair.start(connecting: server.connection, logger: logger)
    let text = String(repeating: "x", count: byteCount)
    var latencies: [Duration] = []
    do {
        var iterator = pair.arrivals.stream.makeAsyncIterator()
        for sequence in 0...count {
            let start = ContinuousClock.now
            pair.sending.post(BenchmarkEvent(sequence: sequence, text: text))
            guard let arrival = await iterator.next(), arrival.sequence == sequence else {
                throw BenchmarkFailure("large event \(sequence) did not arrive in order")
            }
            if sequence > 0 { latencies.append(arrival.at - start) }
        }
    } catch {
        try? await pair.stop()
        throw error
    }
    try await pair.stop()
    guard pair.sender.counts.notSent == 0 else {
        throw BenchmarkFailure("the relay refused large events: \(pair.sender.counts)")
    }
    return latencies.sorted()
}

import Broadcast
import BroadcastPostgresRelay
import Logging
import RelayTestSupport

/// The relay: `post` on one instance's broadcaster, a handler on the
/// other's.
func measureRelay(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws -> Measurement {
    let pair = try await RelayPair.start(on: server, logger: logger)
    let measurement: Measurement
    do {
        measurement = try await measure(arrivals: pair.arrivals, size: size) {
            pair.sending.post(BenchmarkEvent(sequence: $0))
        }
    } catch {
        try? await pair.stop()
        throw error
    }
    try await pair.stop()
    guard pair.sender.counts.notSent == 0, pair.receiver.counts.skipped == 0 else {
        throw BenchmarkFailure("the relay refused or skipped events: \(pair.sender.counts), \(pair.receiver.counts)")
    }
    return measurement
}

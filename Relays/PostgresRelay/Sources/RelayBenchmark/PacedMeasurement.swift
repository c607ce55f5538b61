import Logging
import RelayTestSupport

/// One round's paced latencies, for each of
/// ``BenchmarkSize/pacedIntervals``: the floor's and the relay's.
struct PacedMeasurement: CustomStringConvertible {
    let floor: [Percentiles]
    let relay: [Percentiles]

    var description: String {
        zip(floor, relay).map { "paced p50 floor \(Int($0.p50)) µs, relay \(Int($1.p50)) µs" }
            .joined(separator: "; ")
    }
}

/// Measures both sides' paced latency with both connected at once, each
/// interval's events sent in blocks, floor and relay in turn, the first of
/// each pair alternating.
///
/// The machine's pace drifts over seconds (other work, the host's), and
/// paced latency follows it: blocks a fraction of a second long, in turn,
/// give both sides the same machine.
func measurePaced(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws
    -> PacedMeasurement
{
    try await withFloor(on: server, logger: logger) { floor in
        try await withRelay(on: server, logger: logger) { relay in
            var cursors = [SideCursor(floor), SideCursor(relay)]
            var percentiles: [[Percentiles]] = [[], []]
            for (interval, count) in size.pacedIntervals {
                var latencies: [[Duration]] = [[], []]
                for block in 0..<size.pacedBlocks {
                    for side in block.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                        latencies[side] += try await measurePaced(
                            every: interval, count: count / size.pacedBlocks, &cursors[side])
                    }
                }
                for side in 0...1 { percentiles[side].append(Percentiles(latencies[side])) }
            }
            return PacedMeasurement(floor: percentiles[0], relay: percentiles[1])
        }
    }
}

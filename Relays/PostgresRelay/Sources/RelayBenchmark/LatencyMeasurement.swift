import Logging
import PostgresNIO
import RelayTestSupport

/// One round's latencies, for each of ``BenchmarkSize/latencies``: the
/// floor's and the relay's.
struct LatencyMeasurement: CustomStringConvertible {
    let floor: [Percentiles]
    let relay: [Percentiles]

    var description: String {
        zip(floor, relay).map { "p50 floor \(Int($0.p50)) µs, relay \(Int($1.p50)) µs" }.joined(separator: "; ")
    }
}

/// Measures both sides' latencies with both connected at once: a warm-up,
/// then each pace's events sent in blocks, floor and relay in turn, the
/// first of each pair alternating.
///
/// The machine's pace drifts over seconds (other work, the host's), and
/// latency follows it: blocks a fraction of a second long, in turn, give
/// both sides the same machine. Each side has a database of its own: a
/// `NOTIFY` wakes every session listening in its database, and the other
/// side's listeners would take a core from the delivery.
func measureLatencies(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws
    -> LatencyMeasurement
{
    let floorDatabase = try await connection(toDatabase: "latency_floor", on: server, logger: logger)
    let relayDatabase = try await connection(toDatabase: "latency_relay", on: server, logger: logger)
    return try await withFloor(connecting: floorDatabase, logger: logger) { floor in
        try await withRelay(connecting: relayDatabase, logger: logger) { relay in
            var cursors = [SideCursor(floor), SideCursor(relay)]
            for side in 0...1 { _ = try await cursors[side].latencies(.oneInFlight, count: size.warmUp) }
            var percentiles: [[Percentiles]] = [[], []]
            for (pace, count) in size.latencies {
                var latencies: [[Duration]] = [[], []]
                for block in 0..<size.blocks {
                    for side in block.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                        latencies[side] += try await cursors[side].latencies(pace, count: count / size.blocks)
                    }
                }
                for side in 0...1 { percentiles[side].append(Percentiles(latencies[side])) }
            }
            return LatencyMeasurement(floor: percentiles[0], relay: percentiles[1])
        }
    }
}

/// A configuration connecting to `server`'s database `name`, created if
/// absent.
func connection(toDatabase name: String, on server: PostgresTestServer, logger: Logger) async throws
    -> PostgresConnection.Configuration
{
    let connection = try await server.connect(logger: logger)
    do {
        let existing = try await connection.query("SELECT 1 FROM pg_database WHERE datname = \(name)", logger: logger)
            .collect()
        if existing.isEmpty {
            // A database's name is an identifier, not a value: spelled out.
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
    } catch {
        try? await connection.close()
        throw error
    }
    try await connection.close()
    var configuration = server.connection
    configuration.database = name
    return configuration
}

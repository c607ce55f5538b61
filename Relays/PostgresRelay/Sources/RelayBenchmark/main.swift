// Events per second and latency, from `post` on one instance to the handler
// call on another, through a real PostgreSQL server on loopback, against
// the floor: the same traffic written by hand with postgres-nio (JSON
// encoded, `SELECT pg_notify` awaited, `LISTEN`, JSON decoded). Latency one
// event in flight at a time, and paced: an event every 1 ms and every 5 ms,
// posted whether the earlier ones arrived or not. Relay and floor alternate,
// round after round, so that both see the same machine; paced, in blocks of
// a fifth of a second.
// Then the server restarts under a steady stream of posts, and the time to
// the first event delivered again is measured.
//
//     swift run -c release RelayBenchmark [--rounds N] [--quick]

import Broadcast
import BroadcastPostgresRelay
import Foundation
import Logging
import PostgresNIO
import RelayTestSupport

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? (quick ? 1 : 5)
let size = BenchmarkSize(
    latencySamples: quick ? 200 : 2000, burstSize: quick ? 2000 : 20_000,
    pacedIntervals: [(.milliseconds(1), quick ? 200 : 2000), (.milliseconds(5), quick ? 40 : 400)],
    pacedBlocks: quick ? 2 : 10)

guard PostgresTestServer.isAvailable else {
    print("RelayBenchmark: \(PostgresTestServer.unavailableReason ?? "no PostgreSQL server")")
    exit(1)
}
var logger = Logger(label: "relay-benchmark")
logger.logLevel = .critical

print("Load average before: \(loadAverage())")
let server = try await PostgresTestServer.start()
var results: [String: [Measurement]] = ["floor": [], "relay": []]
var paced: [PacedMeasurement] = []
var restarts: [RestartMeasurement] = []
var largeEvents: [(byteCount: Int, latencies: [Duration])] = []
do {
    for round in 1...rounds {
        // Alternate which goes first, so that neither always follows the other.
        let order = round.isMultiple(of: 2) ? ["relay", "floor"] : ["floor", "relay"]
        for name in order {
            let measurement =
                name == "floor"
                ? try await measureFloor(on: server, size: size, logger: logger)
                : try await measureRelay(on: server, size: size, logger: logger)
            results[name, default: []].append(measurement)
            print("round \(round) \(name): \(measurement)")
        }
        paced.append(try await measurePaced(on: server, size: size, logger: logger))
        print("round \(round): \(paced[paced.count - 1])")
    }
    for (byteCount, count) in quick ? [(1_000_000, 3)] : [(100_000, 20), (1_000_000, 20), (16_000_000, 3)] {
        let latencies = try await measureLargeEvents(on: server, byteCount: byteCount, count: count, logger: logger)
        largeEvents.append((byteCount, latencies))
        print("events of \(byteCount) bytes: \(latencies.map { Int(microseconds($0)) }) µs")
    }
    for round in 1...(quick ? 1 : 3) {
        let restart = try await measureRestart(on: server, logger: logger)
        restarts.append(restart)
        print("restart \(round): \(restart)")
        guard restart.accounted == restart.posted else {
            throw BenchmarkFailure("the relay did not account for every post across the restart")
        }
    }
} catch {
    try? await server.stop()
    throw error
}
try await server.stop()
print("Load average after: \(loadAverage())")
print("")
print("| | events/s (burst of \(size.burstSize)) | p50 latency | p99 latency |")
print("| --- | --- | --- | --- |")
for name in ["floor", "relay"] {
    let measurements = results[name] ?? []
    print(
        "| \(name) | \(spread(measurements.map(\.eventsPerSecond), unit: "")) "
            + "| \(spread(measurements.map(\.p50), unit: " µs")) | \(spread(measurements.map(\.p99), unit: " µs")) |")
}
print("")
print(
    "Each cell: median of \(rounds) rounds [lowest–highest]; latency from \(size.latencySamples) events, one in flight."
)
print("")
print("| | " + size.pacedIntervals.map { "paced, one every \($0.interval): p50 | p99" }.joined(separator: " | ") + " |")
print("| --- |" + String(repeating: " --- | --- |", count: size.pacedIntervals.count))
for (name, side) in [("floor", \PacedMeasurement.floor), ("relay", \PacedMeasurement.relay)] {
    let cells = size.pacedIntervals.indices.map { index in
        "\(spread(paced.map { $0[keyPath: side][index].p50 }, unit: " µs")) "
            + "| \(spread(paced.map { $0[keyPath: side][index].p99 }, unit: " µs"))"
    }
    print("| \(name) | " + cells.joined(separator: " | ") + " |")
}
print("")
print(
    "Each cell: median of \(rounds) rounds [lowest–highest]; "
        + size.pacedIntervals.map { "\($0.count) events one every \($0.interval)" }.joined(separator: ", ")
        + " per side, posted whether the earlier ones arrived or not, in \(size.pacedBlocks) blocks each, floor and relay in turn."
)
print("")
let ratios = zip(results["relay"] ?? [], results["floor"] ?? [])
print(
    "Relay ÷ floor, round by round (median [lowest–highest]): one in flight p50 "
        + "\(ratio(ratios.map { $0.p50 / $1.p50 })), bursts \(ratio(ratios.map { $0.eventsPerSecond / $1.eventsPerSecond }))"
        + size.pacedIntervals.indices.map { index in
            ", paced every \(size.pacedIntervals[index].interval) p50 "
                + ratio(paced.map { $0.relay[index].p50 / $0.floor[index].p50 })
        }.joined() + "."
)
print("")
print(
    "Server restart (`pg_ctl restart -m fast`, an event posted every millisecond), first event delivered again: "
        + "\(spread(restarts.map { Double(milliseconds($0.fromRestart)) }, unit: " ms")) after the restart began, "
        + "\(spread(restarts.map { Double(milliseconds($0.fromServerBack)) }, unit: " ms")) after the server was back; "
        + "median of \(restarts.count) [lowest–highest]."
)
print("")
for (byteCount, latencies) in largeEvents {
    print(
        "Events of \(byteCount) bytes (through the table), one in flight: "
            + "\(spread(latencies.map(microseconds), unit: " µs")) from post to handler, "
            + "median of \(latencies.count) [lowest–highest]."
    )
}

/// "median× [lowest–highest]" of `values`, two decimals.
func ratio(_ values: [Double]) -> String {
    guard !values.isEmpty else { return "–" }
    let sorted = values.sorted()
    func text(_ value: Double) -> String { String(format: "%.2f", value) }
    return "\(text(sorted[sorted.count / 2]))× [\(text(sorted[0]))–\(text(sorted[sorted.count - 1]))]"
}

/// `duration` in microseconds.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

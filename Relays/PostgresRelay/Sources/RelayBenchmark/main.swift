// Latency and events per second, from `post` on one instance to the handler
// call on another, through a real PostgreSQL server on loopback, against
// the floor: the same traffic written by hand with postgres-nio (JSON
// encoded, `SELECT pg_notify` awaited, `LISTEN`, JSON decoded). Latency one
// event in flight at a time, and paced: an event every 1 ms and every 5 ms,
// posted whether the earlier ones arrived or not; both sides connected at
// once, each to its own database, in blocks of about a fifth of a second or
// less, floor and relay in turn, so that both see the same machine. Then
// events per second in bursts, each side on its own, going first in turn.
// Then events too large for a notification, and the server restarts under a
// steady stream of posts: the time to the first event delivered again.
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
    warmUp: quick ? 20 : 200, burstSize: quick ? 2000 : 20_000,
    latencies: [
        (.oneInFlight, quick ? 200 : 2000), (.every(.milliseconds(1)), quick ? 200 : 2000),
        (.every(.milliseconds(5)), quick ? 40 : 400),
    ],
    blocks: quick ? 2 : 10)

guard PostgresTestServer.isAvailable else {
    print("RelayBenchmark: \(PostgresTestServer.unavailableReason ?? "no PostgreSQL server")")
    exit(1)
}
var logger = Logger(label: "relay-benchmark")
logger.logLevel = .critical

print("Load average before: \(loadAverage())")
let server = try await PostgresTestServer.start()
var latencies: [LatencyMeasurement] = []
var bursts: [String: [Double]] = ["floor": [], "relay": []]
var restarts: [RestartMeasurement] = []
var largeEvents: [(byteCount: Int, latencies: [Duration])] = []
do {
    for round in 1...rounds {
        latencies.append(try await measureLatencies(on: server, size: size, logger: logger))
        print("round \(round): \(latencies[latencies.count - 1])")
        // Alternate which goes first, so that neither always follows the other.
        for name in round.isMultiple(of: 2) ? ["relay", "floor"] : ["floor", "relay"] {
            let eventsPerSecond =
                name == "floor"
                ? try await measureFloorBurst(on: server, size: size, logger: logger)
                : try await measureRelayBurst(on: server, size: size, logger: logger)
            bursts[name, default: []].append(eventsPerSecond)
            print("round \(round) \(name): \(Int(eventsPerSecond)) events/s")
        }
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
print(
    "| | "
        + size.latencies.map { "\($0.pace): p50 | p99" }.joined(separator: " | ")
        + " | events/s (burst of \(size.burstSize)) |")
print("| --- |" + String(repeating: " --- | --- |", count: size.latencies.count) + " --- |")
for (name, side) in [("floor", \LatencyMeasurement.floor), ("relay", \LatencyMeasurement.relay)] {
    let cells = size.latencies.indices.map { index in
        "\(spread(latencies.map { $0[keyPath: side][index].p50 }, unit: " µs")) "
            + "| \(spread(latencies.map { $0[keyPath: side][index].p99 }, unit: " µs"))"
    }
    print("| \(name) | " + cells.joined(separator: " | ") + " | \(spread(bursts[name] ?? [], unit: "")) |")
}
print("")
print(
    "Each cell: median of \(rounds) rounds [lowest–highest]; "
        + size.latencies.map { "\($0.count) events \($0.pace)" }.joined(separator: ", ")
        + " per side, in \(size.blocks) blocks each, floor and relay in turn, after \(size.warmUp) to warm up."
)
print("")
print(
    "Relay ÷ floor, round by round (median [lowest–highest]): "
        + size.latencies.indices.map { index in
            "\(size.latencies[index].pace) p50 \(ratio(latencies.map { $0.relay[index].p50 / $0.floor[index].p50 }))"
        }.joined(separator: ", ")
        + ", bursts \(ratio(zip(bursts["relay"] ?? [], bursts["floor"] ?? []).map { $0 / $1 }))."
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

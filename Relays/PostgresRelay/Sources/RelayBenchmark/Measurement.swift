import Foundation

/// One round's numbers for one side.
struct Measurement: CustomStringConvertible {
    /// Events a burst delivered per second, from the first post to the last
    /// handler call.
    let eventsPerSecond: Double
    /// Latency percentiles, in microseconds, one event in flight at a time.
    let p50: Double
    let p99: Double

    init(eventsPerSecond: Double, latencies: [Duration]) {
        self.eventsPerSecond = eventsPerSecond
        let sorted = latencies.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }
            .sorted()
        p50 = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
    }

    var description: String {
        "\(Int(eventsPerSecond)) events/s, p50 \(Int(p50)) µs, p99 \(Int(p99)) µs"
    }
}

/// "median [lowest–highest]" of `values`.
func spread(_ values: [Double], unit: String) -> String {
    guard !values.isEmpty else { return "–" }
    let sorted = values.sorted()
    let median = sorted[sorted.count / 2]
    return "\(Int(median))\(unit) [\(Int(sorted[0]))–\(Int(sorted[sorted.count - 1]))]"
}

/// The machine's load averages, as /proc/loadavg gives them.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "unknown"
    return text.split(separator: " ").prefix(3).joined(separator: " / ")
}

/// The event both sides carry.
struct BenchmarkEvent: Codable, Sendable {
    let sequence: Int
    let text: String

    init(sequence: Int) {
        self.sequence = sequence
        text = "cache entry user:\(sequence) changed"
    }

    /// An event whose text is `text`.
    init(sequence: Int, text: String) {
        self.sequence = sequence
        self.text = text
    }
}

/// Hands each received sequence number, with the moment it arrived, from the
/// receiving side to the measuring loop.
struct Arrivals: Sendable {
    let stream: AsyncStream<(sequence: Int, at: ContinuousClock.Instant)>
    let continuation: AsyncStream<(sequence: Int, at: ContinuousClock.Instant)>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: (sequence: Int, at: ContinuousClock.Instant).self)
    }

    func arrived(_ sequence: Int) {
        continuation.yield((sequence, .now))
    }
}

/// How many events each measurement sends.
struct BenchmarkSize: Sendable {
    /// Events sent one at a time for the latency, after a tenth as many to
    /// warm up.
    let latencySamples: Int
    /// Events sent at once for the throughput.
    let burstSize: Int
}

/// Runs the two measurements against one side: `send` posts or notifies
/// event `n`, `arrivals` reports each received one.
func measure(
    arrivals: Arrivals, size: BenchmarkSize, send: (Int) async throws -> Void
) async throws -> Measurement {
    let latencySamples = size.latencySamples
    let burstSize = size.burstSize
    var iterator = arrivals.stream.makeAsyncIterator()
    var latencies: [Duration] = []
    let warmUp = latencySamples / 10
    for sequence in 0..<(warmUp + latencySamples) {
        let start = ContinuousClock.now
        try await send(sequence)
        guard let arrival = await iterator.next(), arrival.sequence == sequence else {
            throw BenchmarkFailure("event \(sequence) did not arrive in order")
        }
        if sequence >= warmUp { latencies.append(arrival.at - start) }
    }
    let first = warmUp + latencySamples
    let start = ContinuousClock.now
    for sequence in first..<(first + burstSize) {
        try await send(sequence)
    }
    var last = start
    for expected in first..<(first + burstSize) {
        guard let arrival = await iterator.next(), arrival.sequence == expected else {
            throw BenchmarkFailure("event \(expected) of the burst did not arrive in order")
        }
        last = arrival.at
    }
    let seconds = Double((last - start).components.attoseconds) / 1e18 + Double((last - start).components.seconds)
    return Measurement(eventsPerSecond: Double(burstSize) / seconds, latencies: latencies)
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

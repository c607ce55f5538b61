import Foundation

/// One round's numbers for one side.
struct Measurement: CustomStringConvertible {
    /// Events a burst delivered per second, from the first post to the last
    /// handler call.
    let eventsPerSecond: Double
    /// Latency percentiles, in microseconds, one event in flight at a time.
    let p50: Double
    let p99: Double
    /// Latency percentiles, in microseconds, of events posted at a steady
    /// pace, one for each of ``BenchmarkSize/pacedIntervals``.
    let paced: [Percentiles]

    init(eventsPerSecond: Double, latencies: [Duration], paced: [[Duration]]) {
        self.eventsPerSecond = eventsPerSecond
        let inFlight = Percentiles(latencies)
        p50 = inFlight.p50
        p99 = inFlight.p99
        self.paced = paced.map(Percentiles.init)
    }

    var description: String {
        "\(Int(eventsPerSecond)) events/s, one in flight p50 \(Int(p50)) µs, p99 \(Int(p99)) µs"
            + paced.map { ", paced p50 \(Int($0.p50)) µs, p99 \(Int($0.p99)) µs" }.joined()
    }
}

/// The median and 99th percentile of latencies, in microseconds.
struct Percentiles {
    let p50: Double
    let p99: Double

    init(_ latencies: [Duration]) {
        let sorted = latencies.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }
            .sorted()
        p50 = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
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
    /// The intervals events are posted at for the paced latency, and how
    /// many events each.
    let pacedIntervals: [(interval: Duration, count: Int)]
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
    var next = first + burstSize
    var paced: [[Duration]] = []
    for (interval, count) in size.pacedIntervals {
        paced.append(try await measurePaced(every: interval, count: count, from: next, iterator: &iterator, send: send))
        next += count
    }
    return Measurement(eventsPerSecond: Double(burstSize) / seconds, latencies: latencies, paced: paced)
}

/// Sends events `first`, `first + 1`… one every `interval`, whether the
/// earlier ones have arrived or not, as a server sends what its requests
/// cause; returns each one's time from its send to its arrival.
func measurePaced(
    every interval: Duration, count: Int, from first: Int,
    iterator: inout AsyncStream<(sequence: Int, at: ContinuousClock.Instant)>.Iterator,
    send: (Int) async throws -> Void
) async throws -> [Duration] {
    var sent: [ContinuousClock.Instant] = []
    sent.reserveCapacity(count)
    // Each send is due at its own instant: one that starts late does not
    // delay the ones after it.
    let start = ContinuousClock.now + interval
    for index in 0..<count {
        try await Task.sleep(until: start + interval * index, clock: .continuous)
        sent.append(.now)
        try await send(first + index)
    }
    var latencies: [Duration] = []
    for index in 0..<count {
        guard let arrival = await iterator.next(), arrival.sequence == first + index else {
            throw BenchmarkFailure("paced event \(first + index) did not arrive in order")
        }
        latencies.append(arrival.at - sent[index])
    }
    return latencies
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

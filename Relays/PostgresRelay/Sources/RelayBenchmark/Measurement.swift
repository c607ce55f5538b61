import Foundation

/// One round's numbers for one side, its events one in flight and in a
/// burst.
struct Measurement: CustomStringConvertible {
    /// Events a burst delivered per second, from the first post to the last
    /// handler call.
    let eventsPerSecond: Double
    /// Latency percentiles, in microseconds, one event in flight at a time.
    let p50: Double
    let p99: Double

    init(eventsPerSecond: Double, latencies: [Duration]) {
        self.eventsPerSecond = eventsPerSecond
        let inFlight = Percentiles(latencies)
        p50 = inFlight.p50
        p99 = inFlight.p99
    }

    var description: String {
        "\(Int(eventsPerSecond)) events/s, one in flight p50 \(Int(p50)) µs, p99 \(Int(p99)) µs"
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
    /// many events each side sends at each, in ``pacedBlocks`` blocks.
    let pacedIntervals: [(interval: Duration, count: Int)]
    /// How many blocks each side's paced events are sent in, floor and
    /// relay in turn.
    let pacedBlocks: Int
}

/// A side of the measurement, the floor's or the relay's: `send` posts or
/// notifies event `n`, `arrivals` reports each received one.
struct BenchmarkSide: Sendable {
    let arrivals: Arrivals
    let send: @Sendable (Int) async throws -> Void
}

/// Where a side's measurement is: the arrivals it reads, and the sequence
/// number of the next event it sends.
struct SideCursor {
    let side: BenchmarkSide
    var iterator: AsyncStream<(sequence: Int, at: ContinuousClock.Instant)>.Iterator
    var next = 0

    init(_ side: BenchmarkSide) {
        self.side = side
        iterator = side.arrivals.stream.makeAsyncIterator()
    }
}

/// Measures `side`'s latency one event in flight at a time, then its
/// throughput in a burst.
func measure(_ side: BenchmarkSide, size: BenchmarkSize) async throws -> Measurement {
    let latencySamples = size.latencySamples
    let burstSize = size.burstSize
    var iterator = side.arrivals.stream.makeAsyncIterator()
    var latencies: [Duration] = []
    let warmUp = latencySamples / 10
    for sequence in 0..<(warmUp + latencySamples) {
        let start = ContinuousClock.now
        try await side.send(sequence)
        guard let arrival = await iterator.next(), arrival.sequence == sequence else {
            throw BenchmarkFailure("event \(sequence) did not arrive in order")
        }
        if sequence >= warmUp { latencies.append(arrival.at - start) }
    }
    let first = warmUp + latencySamples
    let start = ContinuousClock.now
    for sequence in first..<(first + burstSize) {
        try await side.send(sequence)
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

/// Sends `count` events of `cursor`'s side, one every `interval`, whether
/// the earlier ones have arrived or not, as a server sends what its
/// requests cause; returns each one's time from its send to its arrival.
func measurePaced(every interval: Duration, count: Int, _ cursor: inout SideCursor) async throws -> [Duration] {
    let first = cursor.next
    cursor.next += count
    var sent: [ContinuousClock.Instant] = []
    sent.reserveCapacity(count)
    // Each send is due at its own instant: one that starts late does not
    // delay the ones after it.
    let start = ContinuousClock.now + interval
    for index in 0..<count {
        try await Task.sleep(until: start + interval * index, clock: .continuous)
        sent.append(.now)
        try await cursor.side.send(first + index)
    }
    var latencies: [Duration] = []
    for index in 0..<count {
        guard let arrival = await cursor.iterator.next(), arrival.sequence == first + index else {
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

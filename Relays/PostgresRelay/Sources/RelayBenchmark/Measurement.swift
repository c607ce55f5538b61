import Foundation

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
    /// Events sent one in flight by each side before it is measured.
    let warmUp: Int
    /// Events sent at once for the throughput.
    let burstSize: Int
    /// How events are sent for each latency measured, and how many events
    /// each side sends, in ``blocks`` blocks.
    let latencies: [(pace: Pace, count: Int)]
    /// How many blocks each side's events of a latency are sent in, floor
    /// and relay in turn.
    let blocks: Int
}

/// How the events of a latency measurement are sent.
enum Pace: Sendable, CustomStringConvertible {
    /// The next posted the moment the last arrives.
    case oneInFlight
    /// One every `interval`, whether the earlier ones arrived or not, as a
    /// server sends what its requests cause.
    case every(Duration)

    var description: String {
        switch self {
        case .oneInFlight: "one in flight"
        case .every(let interval): "one every \(milliseconds(interval)) ms"
        }
    }
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

    /// Sends `count` events at `pace`; returns each one's time from its
    /// send to its arrival.
    mutating func latencies(_ pace: Pace, count: Int) async throws -> [Duration] {
        switch pace {
        case .oneInFlight:
            var latencies: [Duration] = []
            for sequence in next..<(next + count) {
                let start = ContinuousClock.now
                try await side.send(sequence)
                latencies.append(try await arrival(of: sequence) - start)
            }
            next += count
            return latencies
        case .every(let interval):
            var sent: [ContinuousClock.Instant] = []
            sent.reserveCapacity(count)
            // Each send is due at its own instant: one that starts late does
            // not delay the ones after it.
            let start = ContinuousClock.now + interval
            for index in 0..<count {
                try await Task.sleep(until: start + interval * index, clock: .continuous)
                sent.append(.now)
                try await side.send(next + index)
            }
            var latencies: [Duration] = []
            for index in 0..<count {
                latencies.append(try await arrival(of: next + index) - sent[index])
            }
            next += count
            return latencies
        }
    }

    /// Sends `count` events at once; returns the events per second, from
    /// the first send to the last arrival.
    mutating func burst(count: Int) async throws -> Double {
        let start = ContinuousClock.now
        for sequence in next..<(next + count) {
            try await side.send(sequence)
        }
        var last = start
        for sequence in next..<(next + count) {
            last = try await arrival(of: sequence)
        }
        next += count
        let seconds = Double((last - start).components.attoseconds) / 1e18 + Double((last - start).components.seconds)
        return Double(count) / seconds
    }

    /// When event `sequence` arrived, which must be the next to arrive.
    private mutating func arrival(of sequence: Int) async throws -> ContinuousClock.Instant {
        guard let arrival = await iterator.next(), arrival.sequence == sequence else {
            throw BenchmarkFailure("event \(sequence) did not arrive in order")
        }
        return arrival.at
    }
}

/// Measures `side`'s throughput in a burst, after a warm-up one event in
/// flight at a time.
func measureBurst(_ side: BenchmarkSide, size: BenchmarkSize) async throws -> Double {
    var cursor = SideCursor(side)
    _ = try await cursor.latencies(.oneInFlight, count: size.warmUp)
    return try await cursor.burst(count: size.burstSize)
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

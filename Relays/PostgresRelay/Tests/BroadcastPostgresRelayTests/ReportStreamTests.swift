import Logging
import Testing

@testable import BroadcastPostgresRelay

/// The streams of `reports()`.
///
/// What a stream keeps for a consumer that reads slower than the relay
/// reports. No server: the reports are made here.
@Suite(.timeLimit(.minutes(1))) struct ReportStreamTests {
    private static func reporter() -> RelayReporter {
        RelayReporter(logger: Logger(label: "reports", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    private static func notSent(_ number: Int) -> RelayReport {
        RelayReport(.eventNotSent, channel: "c\(number)", error: .outgoingBufferFull(capacity: 1))
    }

    private static func read(_ stream: AsyncStream<RelayReport>) async -> [RelayReport] {
        var reports: [RelayReport] = []
        for await report in stream { reports.append(report) }
        return reports
    }

    /// A flood of event reports leaves the reports of the connection.
    ///
    /// While the outgoing buffer is full, every event posted is reported not
    /// sent: thousands a second. A consumer that reads after such a flood
    /// still finds the lost connection and the resumption among them, in the
    /// order made, beside the newest reports of events.
    @Test func aFloodOfEventReportsDoesNotPushOutTheReportsOfTheConnection() async {
        let reporter = Self.reporter()
        let stream = reporter.makeStream()
        reporter.report(RelayReport(.connectionLost, error: .relayStopped))
        for number in 0..<3000 { reporter.report(Self.notSent(number)) }
        reporter.report(RelayReport(.resumed))
        for number in 3000..<6000 { reporter.report(Self.notSent(number)) }
        reporter.finish()

        let reports = await Self.read(stream)
        #expect(reports.count == RelayReporter.streamCapacity)
        #expect(reports.map(\.kind).filter { $0 != .eventNotSent } == [.connectionLost, .resumed])
        #expect(reports.first?.kind == .connectionLost)
        // Read in the order made: the newest 998 event reports came after the
        // resumption.
        let events = reports.filter { $0.kind == .eventNotSent }.compactMap(\.channel)
        #expect(events == (5002..<6000).map { "c\($0)" })
        #expect(reports[1].kind == .resumed)
    }

    /// Reports of one kind are read in the order made, and the newest are
    /// kept.
    @Test func aFullStreamOfEventReportsKeepsTheNewest() async {
        let reporter = Self.reporter()
        let stream = reporter.makeStream()
        for number in 0..<1500 { reporter.report(Self.notSent(number)) }
        reporter.finish()
        let channels = await Self.read(stream).compactMap(\.channel)
        #expect(channels == (500..<1500).map { "c\($0)" })
    }

    /// Reports of events and of the connection are read in the order made.
    @Test func reportsAreReadInTheOrderMade() {
        var unread = UnreadReports(capacity: 10)
        let made = [
            Self.notSent(0), RelayReport(.connectionLost, channel: "1"), Self.notSent(2),
            RelayReport(.resumed, channel: "3"), RelayReport(.connectionFailed, channel: "4"), Self.notSent(5),
        ]
        for report in made { #expect(unread.append(report) == nil) }
        var read: [String] = []
        while let report = unread.removeOldest() { read.append(report.channel ?? "") }
        #expect(read == ["c0", "1", "c2", "3", "4", "c5"])
    }

    /// Only when every unread report is of the connection does the oldest of
    /// them make room.
    @Test func aStreamFullOfReportsOfTheConnectionDropsTheOldestOfThem() {
        var unread = UnreadReports(capacity: 3)
        #expect(unread.append(RelayReport(.connectionFailed, channel: "1")) == nil)
        #expect(unread.append(RelayReport(.connectionFailed, channel: "2")) == nil)
        #expect(unread.append(Self.notSent(3)) == nil)
        // Full: the event report makes room, though it is the newest.
        #expect(unread.append(RelayReport(.connectionFailed, channel: "4"))?.channel == "c3")
        // Full of reports of the connection: the oldest makes room.
        #expect(unread.append(Self.notSent(5))?.channel == "1")
        var read: [String] = []
        while let report = unread.removeOldest() { read.append(report.channel ?? "") }
        #expect(read == ["2", "4", "c5"])
    }

    /// A consumer waiting for a report receives the next one made; the stream
    /// ends when the relay stops; a stream asked for after that ends at once.
    @Test func aWaitingConsumerReceivesTheNextReportAndTheStreamEndsWhenTheRelayStops() async {
        let reporter = Self.reporter()
        let stream = reporter.makeStream()
        let consumer = Task { await Self.read(stream).map(\.kind) }
        reporter.report(RelayReport(.listening))
        reporter.report(RelayReport(.stopped))
        reporter.finish()
        #expect(await consumer.value == [.listening, .stopped])
        #expect(await Self.read(reporter.makeStream()).isEmpty)
    }

    /// Reports made on several threads at once, released together, while the
    /// consumer reads: each thread's reports are read in the order it made
    /// them, none twice, and the last report made is the last read, though
    /// the stream is full most of the time.
    @Test func reportsMadeOnSeveralThreadsAtOnceAreReadInOrderOnce() async {
        let reporter = Self.reporter()
        let stream = reporter.makeStream()
        let consumer = Task { await Self.read(stream) }
        let threads = 4
        let perThread = 20_000
        let returned = await onThreadsReleasedTogether(count: threads) { thread in
            for number in 0..<perThread {
                reporter.report(RelayReport(.eventNotSent, channel: "\(thread)", typeName: "\(number)"))
            }
        }
        #expect(returned, "a thread reporting did not return")
        reporter.finish()

        let reports = await consumer.value
        var lastRead: [String: Int] = [:]
        for report in reports {
            let thread = report.channel ?? ""
            let number = Int(report.typeName ?? "") ?? -1
            #expect(
                number > lastRead[thread, default: -1], "thread \(thread): \(number) after \(lastRead[thread] ?? -1)")
            lastRead[thread] = number
        }
        #expect(reports.last?.typeName == "\(perThread - 1)")
    }

    /// Cancelling the consuming task while it waits for a report ends its
    /// loop, though the relay goes on.
    @Test func cancellingTheConsumerEndsItsStream() async throws {
        let reporter = Self.reporter()
        let stream = reporter.makeStream()
        let read = Collected<RelayReport.Kind>()
        let consumer = Task {
            for await report in stream { read.append(report.kind) }
        }
        reporter.report(RelayReport(.listening))
        // Read, so the consumer has gone on to wait for the next report.
        try await read.wait("the first report read") { $0.count == 1 }
        consumer.cancel()
        // A stream the cancellation did not end is ended after 10 s, having
        // read a report, so that the test fails then rather than at its limit.
        let backstop = Task {
            try await Task.sleep(for: .seconds(10))
            reporter.report(RelayReport(.resumed))
            reporter.finish()
        }
        await consumer.value
        backstop.cancel()
        #expect(read.all == [.listening])
    }
}

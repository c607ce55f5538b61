import Broadcast
import BroadcastPostgresRelay
import Logging
import RelayTestSupport

/// The relay: `post` on one instance's broadcaster, a handler on the
/// other's.
func measureRelay(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws -> Measurement {
    var configuration = PostgresRelay.Configuration(connection: server.connection)
    configuration.outgoingCapacity = 1_000_000
    let relayed: [RelayedEvents] = [.events(of: BenchmarkEvent.self, channel: "relay")]
    let sending = Broadcaster()
    let receiving = Broadcaster()
    let sender = try PostgresRelay(
        broadcaster: sending, configuration: configuration, relaying: relayed, logger: logger)
    let receiver = try PostgresRelay(
        broadcaster: receiving, configuration: configuration, relaying: relayed, logger: logger)
    let arrivals = Arrivals()
    let token = receiving.addRelayHandler(for: BenchmarkEvent.self) { arrivals.arrived($0.sequence) }
    defer { token.cancel() }

    let senderReports = sender.reports()
    let receiverReports = receiver.reports()
    let running = [Task { try await sender.run() }, Task { try await receiver.run() }]
    for reports in [senderReports, receiverReports] {
        for await report in reports where report.kind == .listening { break }
    }
    let measurement: Measurement
    do {
        measurement = try await measure(arrivals: arrivals, size: size) {
            sending.post(BenchmarkEvent(sequence: $0))
        }
    } catch {
        for task in running { task.cancel() }
        throw error
    }
    for task in running {
        task.cancel()
        try await task.value
    }
    guard sender.counts.notSent == 0, receiver.counts.skipped == 0 else {
        throw BenchmarkFailure("the relay refused or skipped events: \(sender.counts), \(receiver.counts)")
    }
    return measurement
}

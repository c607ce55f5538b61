import Broadcast
import BroadcastPostgresRelay
import Logging
import PostgresNIO
import RelayTestSupport

/// Two relay instances on one database, both listening: events posted on
/// `sending` arrive in `arrivals`, from a handler on the other instance's
/// broadcaster.
struct RelayPair {
    let sending = Broadcaster()
    let receiving = Broadcaster()
    let sender: PostgresRelay
    let receiver: PostgresRelay
    let arrivals = Arrivals()
    private let token: BroadcastToken
    private let running: [Task<Void, any Error>]

    static func start(connecting connection: PostgresConnection.Configuration, logger: Logger) async throws
        -> RelayPair
    {
        var configuration = PostgresRelay.Configuration(connection: connection)
        configuration.outgoingCapacity = 1_000_000
        return try await RelayPair(configuration: configuration, logger: logger)
    }

    private init(configuration: PostgresRelay.Configuration, logger: Logger) async throws {
        let relayed: [RelayedEvents] = [.events(of: BenchmarkEvent.self, channel: "relay")]
        sender = try PostgresRelay(
            broadcaster: sending, configuration: configuration, relaying: relayed, logger: logger)
        receiver = try PostgresRelay(
            broadcaster: receiving, configuration: configuration, relaying: relayed, logger: logger)
        let arrivals = arrivals
        token = receiving.addRelayHandler(for: BenchmarkEvent.self) { arrivals.arrived($0.sequence) }
        let (sender, receiver) = (sender, receiver)
        running = [Task { try await sender.run() }, Task { try await receiver.run() }]
        try await sender.listening()
        try await receiver.listening()
    }

    /// Stops both relays and waits until their `run()` returned.
    func stop() async throws {
        for task in running {
            task.cancel()
            try await task.value
        }
        token.cancel()
    }
}

import Foundation
import Logging
import PostgresNIO
import RelayTestSupport

/// The floor's events per second in a burst: what an app writes by hand
/// with postgres-nio.
func measureFloorBurst(on server: PostgresTestServer, size: BenchmarkSize, logger: Logger) async throws -> Double {
    try await withFloor(connecting: server.connection, logger: logger) { floor in
        try await measureBurst(floor, size: size)
    }
}

/// Runs `body` with the floor's side connected to `configuration`'s
/// database: one connection sends each event as JSON with an awaited
/// `SELECT pg_notify`, the other listens and decodes.
func withFloor<Result: Sendable>(
    connecting configuration: PostgresConnection.Configuration, logger: Logger,
    _ body: @escaping @Sendable (BenchmarkSide) async throws -> Result
) async throws -> Result {
    let sender = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    let listener = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
    let arrivals = Arrivals()
    let encoder = JSONEncoder()
    let side = BenchmarkSide(arrivals: arrivals) {
        let payload = String(decoding: try encoder.encode(BenchmarkEvent(sequence: $0)), as: UTF8.self)
        try await sender.query("SELECT pg_notify('floor', \(payload))", logger: logger)
    }
    let result: Result
    do {
        result = try await listener.listen(on: "floor") { notifications in
            try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    let decoder = JSONDecoder()
                    for try await notification in notifications {
                        let event = try decoder.decode(BenchmarkEvent.self, from: Data(notification.payload.utf8))
                        arrivals.arrived(event.sequence)
                    }
                    return nil
                }
                group.addTask { try await body(side) }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw BenchmarkFailure("the floor's listener ended")
            }
        }
    } catch {
        try? await sender.close()
        try? await listener.close()
        throw error
    }
    try await sender.close()
    try await listener.close()
    return result
}

import RelayTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Skips a test that needs a PostgreSQL server where none can be started.
    static var needsPostgres: Self {
        .enabled(
            if: PostgresTestServer.isAvailable,
            Comment(rawValue: PostgresTestServer.unavailableReason ?? ""))
    }
}

import Foundation

/// The time limits of the reliability suites, which grow with the sizes the
/// environment asks for (a lost delivery fails the test at its limit
/// instead of hanging).
enum ReliabilityTimeLimits {
    /// Per model test: 13 s at the default sizes, several times that under
    /// the sanitizers; a minute more per 500 sequences asked for with
    /// `BROADCAST_MODEL_SEQUENCES`.
    static let modelMinutes =
        3 + (ProcessInfo.processInfo.environment["BROADCAST_MODEL_SEQUENCES"].flatMap(Int.init) ?? 0) / 500

    /// The stress test: 14 s at the default size, several times that under
    /// the sanitizers; `scripts/soak` asks for rounds until
    /// `BROADCAST_STRESS_SECONDS` have passed and for larger rounds
    /// (`BROADCAST_STRESS_OPERATIONS`), so the limit grows with both.
    static let stressMinutes: Int = {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["BROADCAST_STRESS_SECONDS"].flatMap(Double.init) ?? 0
        let operations = environment["BROADCAST_STRESS_OPERATIONS"].flatMap(Int.init) ?? 5_000
        return 3 + Int(seconds / 60) + operations / 10_000
    }()
}

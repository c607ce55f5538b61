// An event value for connectivity changes.
nonisolated enum Connectivity: Sendable {
    case online
    case offline
}

// Something that runs a sync and broadcasts its progress.
nonisolated let syncEngine = SyncEngine()

nonisolated final class SyncEngine: Sendable {
    func run() {}
}

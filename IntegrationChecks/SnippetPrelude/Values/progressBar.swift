// A progress bar that shows a sync's progress while it runs.
nonisolated let progressBar = ProgressBar()

@MainActor
final class ProgressBar {
    nonisolated init() {}
}

extension ProgressBar: @MainActor SyncProgressListener {
    func syncProgressed(_ fraction: Double) {}
}

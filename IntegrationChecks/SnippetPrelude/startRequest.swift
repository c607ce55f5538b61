// Starts the request for a download and returns the closure that cancels it.
nonisolated func startRequest(_ id: Int) -> @Sendable () -> Void {
    {}
}

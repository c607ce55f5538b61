import RelayTestSupport

/// Numbered chat messages posted on an instance, one about every 0.1 ms
/// (or `interval`), until stopped: the fast posting a server's restart must
/// not lose track of.
final class PostingLoad: Sendable {
    private let posting: Task<Int, Never>

    /// Starts posting on `instance`, numbering from `first`.
    init(on instance: RelayInstance, from first: Int = 0, every interval: Duration = .microseconds(100)) {
        posting = Task.detached {
            var number = first
            while !Task.isCancelled {
                instance.post(number)
                number += 1
                // Paces the posts; nothing waits on it.
                try? await Task.sleep(for: interval)
            }
            return number - first
        }
    }

    /// Stops posting; the number of events posted.
    func stop() async -> Int {
        posting.cancel()
        return await posting.value
    }
}

// The app's store of posts, which Foundation's messages name as their subject.
nonisolated final class PostStore: Sendable {}

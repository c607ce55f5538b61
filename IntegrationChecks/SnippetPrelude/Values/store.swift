// The app's store of posts.
nonisolated let store = PostStore()

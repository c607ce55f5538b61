// A post to broadcast.
nonisolated let post = Post(title: "Hello")

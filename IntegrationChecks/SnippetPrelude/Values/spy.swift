// A spy listener, as Testing with Broadcast writes it.
nonisolated let spy = PostSpy()

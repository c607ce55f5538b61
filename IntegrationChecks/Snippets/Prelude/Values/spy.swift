// A spy registered with the test's broadcaster.
nonisolated let spy = PostSpy()

// A listener whose asynchronous method can fail with its own error type.
nonisolated enum FlushError: Error { case diskFull }

nonisolated protocol CacheFlushing: AnyObject {
    func flush() async throws(FlushError)
}

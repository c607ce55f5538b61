// Cancels the request in flight.
nonisolated func cancelCurrentRequest() {}

import Broadcast

extension Broadcaster {
    /// Broadcasts to `listenerType`, awaits the barrier, and returns the
    /// number of calls made, counted in `deliver`: the exact count that
    /// tests of the delivery's bookkeeping compare against their models.
    ///
    /// A broadcast's own return value counts calls made or scheduled; a
    /// scheduled call whose listener is released, removed or found not to
    /// conform on its actor is counted there but not made. Counting in
    /// `deliver` and waiting with ``waitForScheduledDeliveries()`` counts the
    /// calls that ran.
    func countedBroadcast<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        let calls = Locked(0)
        broadcast(to: P.self) { listener in
            calls.withLock { $0 += 1 }
            deliver(listener)
        }
        await waitForScheduledDeliveries()
        return calls.withLock { $0 }
    }
}

import Synchronization

// Temporary: the waiting forms on the public API, until the 1.0 front lands.
extension Broadcaster {
    @discardableResult
    public func broadcastAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCounter()
        broadcast(to: P.self) {
            calls.increment()
            deliver($0)
        }
        await waitForScheduledDeliveries()
        return calls.value
    }

    @discardableResult
    public func broadcastOnMainActorAndWait<P>(
        to listenerType: P.Type,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @MainActor @Sendable (P) -> Void
    ) async -> Int {
        let calls = CallCounter()
        broadcastOnMainActor(to: P.self) {
            calls.increment()
            deliver($0)
        }
        await waitForScheduledDeliveries()
        return calls.value
    }

    @discardableResult
    public func postAndWait<Event: Sendable>(
        _ event: Event,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        await broadcastAndWait(to: (any EventListener<Event>).self) { $0.receive(event) }
    }
}

final class CallCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension Broadcaster {
    @discardableResult
    public func broadcastAndWait<P, Payload: Sendable>(
        to listenerType: P.Type,
        with payload: Payload,
        isolation: isolated (any Actor)? = #isolation,
        _ deliver: @escaping @Sendable (P, Payload) -> Void
    ) async -> Int {
        await broadcastAndWait(to: P.self) { deliver($0, payload) }
    }
}

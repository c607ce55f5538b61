import Broadcast
import Testing

@Suite("Event streams", .timeLimit(.minutes(1)))
struct EventStreamTests {
    @Test("a stream yields posted values in order")
    func yieldsInOrder() async {
        let broadcaster = Broadcaster()
        var iterator = broadcaster.events(of: Connectivity.self).makeAsyncIterator()
        broadcaster.post(Connectivity(isOnline: true))
        broadcaster.post(Connectivity(isOnline: false))
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first == Connectivity(isOnline: true))
        #expect(second == Connectivity(isOnline: false))
    }

    @Test("cancelling the consuming task ends the stream and unregisters it")
    func cancelledMidIteration() async {
        let broadcaster = Broadcaster()
        let stream = broadcaster.events(of: Connectivity.self)
        let started = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var received: [Connectivity] = []
            for await value in stream {
                received.append(value)
                started.continuation.yield()
            }
            return received
        }
        broadcaster.post(Connectivity(isOnline: true))
        var signals = started.stream.makeAsyncIterator()
        await signals.next()  // the consumer is mid-iteration
        #expect(broadcaster.registrationCount == 1)
        consumer.cancel()
        let received = await consumer.value
        #expect(received == [Connectivity(isOnline: true)])
        #expect(broadcaster.registrationCount == 0)
        #expect(broadcaster.post(Connectivity(isOnline: false)) == 0)
    }

    @Test("a stream ends when its broadcaster is released")
    func endsWithBroadcaster() async {
        var broadcaster: Broadcaster? = Broadcaster()
        weak let weakBroadcaster = broadcaster
        let stream = broadcaster!.events(of: Connectivity.self)
        broadcaster?.post(Connectivity(isOnline: true))
        broadcaster = nil
        #expect(weakBroadcaster == nil)
        var received: [Connectivity] = []
        for await value in stream { received.append(value) }  // returns: the stream finished
        #expect(received == [Connectivity(isOnline: true)])
    }

    @Test("bufferingNewest keeps only the newest values while the consumer is busy")
    func bufferingPolicy() async {
        let broadcaster = Broadcaster()
        var iterator = broadcaster.events(of: Connectivity.self, bufferingPolicy: .bufferingNewest(1))
            .makeAsyncIterator()
        broadcaster.post(Connectivity(isOnline: true))
        broadcaster.post(Connectivity(isOnline: false))
        let only = await iterator.next()
        #expect(only == Connectivity(isOnline: false))
    }
}

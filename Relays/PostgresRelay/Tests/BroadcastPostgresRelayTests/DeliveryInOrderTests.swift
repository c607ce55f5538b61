import Broadcast
import Dispatch
import Logging
import RelayTestSupport
import Testing

@testable import BroadcastPostgresRelay

/// Received events posted one at a time per channel, in the order handed
/// over, whichever relay of the broadcaster received them.
///
/// No server: the notifications are handed to the relays' routes here, as
/// their connections hand them over.
@Suite(.timeLimit(.minutes(1))) struct DeliveryInOrderTests {
    /// Every event is posted once, in the order its origin posted them,
    /// whichever route's copy comes first, though listeners take longer on
    /// some events than on others.
    ///
    /// A route that recorded an event as posted here and then posted it could
    /// be overtaken: while a listener took its time on event 2 posted by one
    /// route, the other skipped its copy of 2 and posted 3.
    @Test func anEventArrivingByTwoRoutesAtOnceIsPostedOnceAndInOrder() async {
        let origin = "00000000000000aa"
        let eventCount = 400
        let payloads = (1...eventCount).map { number in
            RelayTrail(sequence: UInt64(number), path: [origin])
                .payload(eventJSON: "{\"number\":\(number),\"text\":\"\"}")
        }
        for round in 0..<20 {
            let broadcaster = Broadcaster()
            let posted = Collected<Int>()
            // A listener that works for 50 µs on every even event, so that a
            // route delivering one is slower than a route delivering the next.
            let slow = broadcaster.addHandler(for: ChatMessage.self) { message in
                guard message.number.isMultiple(of: 2) else { return }
                let end = ContinuousClock.now + .microseconds(50)
                while ContinuousClock.now < end {}
            }
            let spy = broadcaster.addHandler(for: ChatMessage.self) { posted.append($0.number) }
            let routes = (0..<2).map { relay in
                EventRoute<ChatMessage>(
                    channel: "chat", sticky: false,
                    context: RouteContext(
                        broadcaster: broadcaster, instance: InstanceIdentity.of(broadcaster), relay: -1 - relay,
                        payloadLimit: 8000, outgoing: OutgoingQueue(capacity: 1),
                        reporter: RelayReporter(
                            logger: Logger(label: "routes", factory: { _ in SwiftLogNoOpLogHandler() }))))
            }
            await onThreadsReleasedTogether(count: routes.count) { thread in
                for payload in payloads { routes[thread].receive(payload) }
            }
            let numbers = posted.all
            #expect(numbers == Array(1...eventCount), "round \(round): \(Self.firstDifference(numbers, eventCount))")
            slow.cancel()
            spy.cancel()
        }
    }

    /// A delivery handed over by a delivery on its channel runs after it.
    ///
    /// Not inside it: next, on the same thread. One on another channel runs
    /// at once.
    @Test func aDeliveryHandedOverByADeliveryOnItsChannelRunsAfterIt() async {
        let instance = InstanceIdentity.of(Broadcaster())
        let log = Collected<String>()
        let returned = await Self.onThreadWithin(.seconds(5)) {
            instance.deliveryLine(for: "chat").deliverInOrder {
                log.append("first")
                instance.deliveryLine(for: "chat").deliverInOrder { log.append("second, on chat") }
                instance.deliveryLine(for: "users").deliverInOrder { log.append("on users") }
                log.append("first returns")
            }
        }
        #expect(returned, "a delivery handed over by a delivery waited for the lock")
        #expect(log.all == ["first", "on users", "first returns", "second, on chat"])
    }

    /// A delivery is released after it has run and outside the lock: what it
    /// holds may be the last reference to an object whose `deinit` hands over
    /// a delivery, on the same channel.
    @Test func aDeliveryIsReleasedOutsideTheLock() async {
        let instance = InstanceIdentity.of(Broadcaster())
        let log = Collected<String>()
        let returned = await Self.onThreadWithin(.seconds(5)) {
            instance.deliveryLine(for: "chat").deliverInOrder {
                // Waits its turn: the line holds its only reference.
                let held = HandsOverWhenReleased(instance: instance, log: log)
                instance.deliveryLine(for: "chat").deliverInOrder { log.append("waiting one, holding \(held.name)") }
            }
        }
        #expect(returned, "a delivery's release waited for the lock")
        #expect(log.all == ["waiting one, holding held", "handed over by a deinit"])
    }

    /// Hands over a delivery on "chat" when released.
    private final class HandsOverWhenReleased: Sendable {
        let name = "held"
        let instance: InstanceIdentity
        let log: Collected<String>

        init(instance: InstanceIdentity, log: Collected<String>) {
            self.instance = instance
            self.log = log
        }

        deinit {
            instance.deliveryLine(for: "chat").deliverInOrder { [log] in log.append("handed over by a deinit") }
        }
    }

    /// Runs `body` on a thread of its own; `false` if it has not returned
    /// within `limit`.
    private static func onThreadWithin(_ limit: Duration, _ body: @escaping @Sendable () -> Void) async -> Bool {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        let milliseconds = Int(limit.components.seconds * 1000)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success)
            }
        }
    }

    /// Where `numbers` first differs from 1 through `count`, to name it.
    private static func firstDifference(_ numbers: [Int], _ count: Int) -> String {
        guard let index = numbers.indices.first(where: { numbers[$0] != $0 + 1 }) else {
            return "\(numbers.count) posted, \(count) expected"
        }
        return "\(numbers[index]) posted where \(index + 1) was due, \(numbers.count) posted"
    }
}

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
                        payloadLimit: 8000, notificationLimit: 8000, outgoing: OutgoingQueue(capacity: 1),
                        reporter: RelayReporter(
                            logger: Logger(label: "routes", factory: { _ in SwiftLogNoOpLogHandler() }))))
            }
            let returned = await onThreadsReleasedTogether(count: routes.count) { thread in
                for payload in payloads { _ = routes[thread].receive(payload) }
            }
            #expect(returned, "round \(round): a route did not return")
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
        let returned = await onThreadsReleasedTogether(count: 1, within: .seconds(5)) { _ in
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
        let returned = await onThreadsReleasedTogether(count: 1, within: .seconds(5)) { _ in
            instance.deliveryLine(for: "chat").deliverInOrder {
                // Waits its turn: the line holds its only reference.
                let held = HandsOverWhenReleased(instance: instance, log: log)
                instance.deliveryLine(for: "chat").deliverInOrder { log.append("waiting one, holding \(held.name)") }
            }
        }
        #expect(returned, "a delivery's release waited for the lock")
        #expect(log.all == ["waiting one, holding held", "handed over by a deinit"])
    }

    /// A sticky state read from the table is posted before `restore`
    /// returns, though another relay's delivery holds the channel's line: the
    /// relay reports that it listens once every restore has returned.
    @Test func aStateRestoredWhileTheLineIsBusyIsPostedBeforeTheRestoreReturns() async throws {
        let broadcaster = Broadcaster()
        let route = EventRoute<ChatMessage>(
            channel: "chat", sticky: true,
            context: RouteContext(
                broadcaster: broadcaster, instance: InstanceIdentity.of(broadcaster), relay: -1,
                payloadLimit: 8000, notificationLimit: 8000, outgoing: OutgoingQueue(capacity: 1),
                reporter: RelayReporter(logger: Logger(label: "route", factory: { _ in SwiftLogNoOpLogHandler() }))))
        let line = InstanceIdentity.of(broadcaster).deliveryLine(for: "chat")
        // Another relay's delivery, running on a thread of its own until released.
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            line.deliverInOrder {
                running.signal()
                release.wait()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                running.wait()
                continuation.resume()
            }
        }
        let log = Collected<String>()
        let payload = RelayTrail(sequence: 1, path: ["00000000000000bb"])
            .payload(eventJSON: #"{"number":7,"text":"kept"}"#)
        let restoring = Task {
            await route.restore(payload)
            log.append("returned, holding \(broadcaster.stickyEvent(for: ChatMessage.self)?.number ?? 0)")
        }
        // Released once the restore waits its turn: a restore that returned
        // without waiting has logged by then that it holds no state.
        do {
            try await eventually("the restore's delivery waiting on the line", within: .seconds(5)) {
                line.waitingCount == 1
            }
        } catch {
            release.signal()
            throw error
        }
        release.signal()
        await restoring.value
        #expect(log.all == ["returned, holding 7"])
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

    /// Where `numbers` first differs from 1 through `count`, to name it.
    private static func firstDifference(_ numbers: [Int], _ count: Int) -> String {
        guard let index = numbers.indices.first(where: { numbers[$0] != $0 + 1 }) else {
            return "\(numbers.count) posted, \(count) expected"
        }
        return "\(numbers[index]) posted where \(index + 1) was due, \(numbers.count) posted"
    }
}

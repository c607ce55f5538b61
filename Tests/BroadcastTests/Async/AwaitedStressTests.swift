import Broadcast
import Testing

/// A session listener that only counts its calls.
final class CountingSession: SessionListener, Sendable {
    let calls = CallCounter()

    func userSignedOut() async {
        calls.increment()
        await Task.yield()
    }
}

/// Awaited broadcasts from 8 tasks at once, with listeners joining and
/// leaving meanwhile.
///
/// No call lost, none duplicated. Also run under ThreadSanitizer.
@Suite("Awaited broadcasts: stress", .timeLimit(.minutes(1)))
struct AwaitedStressTests {
    static let taskCount = 8
    static let broadcastsPerTask = 60
    static let stableCount = 10

    @Test func eightTasksBroadcastingWhileListenersComeAndGoLoseAndDuplicateNoCall() async {
        let broadcaster = Broadcaster()
        let stable = (0..<Self.stableCount).map { _ in CountingSession() }
        for listener in stable { broadcaster.addListener(listener) }
        let churned = Locked<[CountingSession]>([])

        let returned = await withTaskGroup(of: Int.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var total = 0
                    for round in 0..<Self.broadcastsPerTask {
                        // A listener that joins for this round only, seen by
                        // whichever concurrent broadcasts snapshot it.
                        let visitor = CountingSession()
                        churned.withLock { $0.append(visitor) }
                        broadcaster.addListener(visitor)
                        let order: AwaitedDeliveryOrder = (task + round).isMultiple(of: 2) ? .sequential : .concurrent
                        let made = await broadcaster.broadcast(awaitingEach: SessionListener.self, order: order) {
                            await $0.userSignedOut()
                        }
                        // Its own visitor was registered before its snapshot.
                        #expect(visitor.calls.count >= 1)
                        broadcaster.removeListener(visitor)
                        total += made
                    }
                    return total
                }
            }
            return await group.reduce(0, +)
        }

        let broadcasts = Self.taskCount * Self.broadcastsPerTask
        for listener in stable {
            #expect(listener.calls.count == broadcasts)
        }
        let visitorCalls = churned.withLock { $0.reduce(0) { $0 + $1.calls.count } }
        let stableCalls = stable.reduce(0) { $0 + $1.calls.count }
        #expect(returned == stableCalls + visitorCalls)
    }
}

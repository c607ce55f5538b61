import Broadcast
import Foundation
import Testing

/// Told the next number of a producer's sequence.
protocol TickListener: AnyObject {
    func tick(producer: Int, number: Int)
}

/// A main-actor screen with an isolated conformance, registered from its
/// main-actor initializer: records, per producer, the numbers it is told.
@MainActor final class TickScreen {
    private(set) var received: [[Int]]
    /// Calls that ran off the main queue (must stay 0).
    private(set) var offMainQueueCalls = 0
    /// Every call, readable while the main actor is held.
    nonisolated let calls = CallCounter()

    init(producers: Int, broadcaster: Broadcaster) {
        received = Array(repeating: [], count: producers)
        broadcaster.addListener(self)
    }
}

extension TickScreen: @MainActor TickListener {
    @MainActor func tick(producer: Int, number: Int) {
        calls.increment()
        if !MainQueueTag.isOnMainQueue { offMainQueueCalls += 1 }
        received[producer].append(number)
    }
}

/// Pinned: a flood of broadcasts from background threads to main-actor
/// listeners, made while the main actor is held, is delivered once the
/// main actor runs: every call exactly once, and each producer's calls in
/// the order it broadcast them.
@Suite("Pinned: a flood scheduled while the main actor is held", .timeLimit(.minutes(1)))
struct MainActorFloodTests {
    static let producers = 2
    static let broadcastsPerProducer = 50_000

    @Test func everyCallArrivesOnceAndInEachProducersOrder() async {
        let broadcaster = Broadcaster()
        let screens = await MainActor.run {
            (0..<2).map { _ in TickScreen(producers: Self.producers, broadcaster: broadcaster) }
        }

        let hold = await MainActorHold.hold()
        // Each producer is a thread of its own (no task, no actor), so the
        // calls are all scheduled on the main actor, behind the hold.
        let made = await withTaskGroup(of: Int.self) { group in
            for producer in 0..<Self.producers {
                group.addTask {
                    await onNewThread {
                        (0..<Self.broadcastsPerProducer).reduce(0) { total, number in
                            total
                                + broadcaster.broadcast(to: TickListener.self, with: (producer, number)) {
                                    $0.tick(producer: $1.0, number: $1.1)
                                }
                        }
                    }
                }
            }
            return await group.reduce(0, +)
        }
        // Not vacuous: every call is still waiting behind the hold.
        let callsWhileHeld = screens.map(\.calls.count)
        // Released by the time limit too, so that a lost call fails the test
        // instead of keeping the main actor held.
        await withTaskCancellationHandler {
            hold.release()
            await broadcaster.waitForScheduledDeliveries()
        } onCancel: {
            hold.release()
        }

        let expected = Array(0..<Self.broadcastsPerProducer)
        #expect(made == Self.producers * Self.broadcastsPerProducer * screens.count)
        #expect(callsWhileHeld == [0, 0])
        await MainActor.run {
            for screen in screens {
                #expect(screen.offMainQueueCalls == 0)
                for producer in 0..<Self.producers {
                    let received = screen.received[producer]
                    let inOrder = received == expected
                    #expect(
                        inOrder,
                        """
                        producer \(producer): \(received.count) calls, first out of place at \
                        \(Self.firstDifference(received, expected).map(String.init) ?? "the end")
                        """)
                }
            }
        }
    }

    /// The first position where `received` and `expected` differ, if any
    /// before the shorter one ends.
    static func firstDifference(_ received: [Int], _ expected: [Int]) -> Int? {
        zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }
}

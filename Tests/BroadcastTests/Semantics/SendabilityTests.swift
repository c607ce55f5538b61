import Broadcast
import Foundation
import Testing

/// Semantic 8 — Sendability: a listener registered from non-isolated code is
/// called synchronously on whatever thread broadcasts.
@Suite("Sendability", .timeLimit(.minutes(1)))
struct SendabilityTests {
    final class ThreadRecorder: Ping, Sendable {
        let threads = EventLog()
        func ping(_ n: Int) { threads.record("\(n)@\(currentThreadID())") }
    }

    /// Runs `body` on a new thread and returns its result.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    @Test func nonisolatedListenerIsCalledOnTheBroadcastingThread() async {
        let broadcaster = Broadcaster()
        let recorder = ThreadRecorder()
        broadcaster.addListener(recorder)  // registered from non-isolated code

        var expected: [String] = []
        for n in 0..<4 {
            // Inside the call: the broadcast has already returned when the
            // thread reports, so the call was synchronous on that thread.
            let (thread, countAfter) = await Self.onNewThread {
                let made = broadcaster.ping(n)
                return ("\(n)@\(currentThreadID())", made == 1 ? recorder.threads.count : -1)
            }
            expected.append(thread)
            #expect(countAfter == n + 1)
        }
        #expect(recorder.threads.all == expected)
    }

    @Test func nonisolatedListenerIsCalledOnTheMainActorWhenBroadcastThere() async {
        let broadcaster = Broadcaster()
        let recorder = ThreadRecorder()
        broadcaster.addListener(recorder)
        let mainThread = await MainActor.run {
            broadcaster.ping(7)
            return "7@\(currentThreadID())"
        }
        #expect(recorder.threads.all == [mainThread])
    }

    @Test func nonisolatedListenerIsCalledInsideTheBroadcastingActor() async {
        actor Broadcasting {
            func broadcast(_ broadcaster: Broadcaster, recorder: ThreadRecorder) -> Bool {
                broadcaster.ping(1)
                // Called synchronously, within this actor's turn.
                return recorder.threads.count == 1
            }
        }
        let broadcaster = Broadcaster()
        let recorder = ThreadRecorder()
        broadcaster.addListener(recorder)
        #expect(await Broadcasting().broadcast(broadcaster, recorder: recorder))
    }
}

import Broadcast
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("Registrations: start racing stop")
struct RegistrationStartStopRaceTests {
    /// A `stop()` racing a `start()` leaves no registration behind.
    ///
    /// A stop that runs while a start on another thread has claimed the
    /// registration but not yet registered its entry finds nothing to
    /// unregister. Without the start undoing what it registered, the listener
    /// stays registered while `isListening` says it is not, and no later
    /// `stop()` can remove it. The window is a few instructions wide:
    /// without the undo, 20,000 rounds on an idle machine found it 3 to 10
    /// times per run.
    @Test("after a start and a stop race, the broadcaster agrees with isListening", .timeLimit(.minutes(1)))
    func startRacingStop() {
        let log = DeliveryLog()
        let spy = SpyListener("a", log: log)
        var disagreements: [String] = []
        // Rounds until 20,000 or 3 seconds: the test must not starve the
        // rest of a parallel run on a busy machine.
        let deadline = ContinuousClock.now + .seconds(3)
        var round = 0
        while round < 20_000 && ContinuousClock.now < deadline {
            defer { round += 1 }
            let broadcaster = Broadcaster()
            let registration = ListenerRegistration(spy, for: Greeting.self, on: broadcaster)
            // Both threads leave the barrier together, so the stop lands
            // inside the start as often as the scheduler allows.
            let barrier = SpinBarrier(parties: 2)
            let stopped = DispatchSemaphore(value: 0)
            // The stop leaves the barrier a little later each round, sweeping
            // the start's window between its claim and its registration.
            let delay = round % 256
            Thread {
                barrier.arriveAndWait()
                spin(delay)
                registration.stop()
                stopped.signal()
            }.start()
            barrier.arriveAndWait()
            registration.start()
            stopped.wait()
            let registered = broadcaster.listenerCount(of: Greeting.self)
            let expected = registration.isListening ? 1 : 0
            if registered != expected {
                disagreements.append("round \(round): \(registered) registered, isListening \(expected == 1)")
            }
            registration.stop()
            #expect(broadcaster.listenerCount(of: Greeting.self) == 0, "round \(round): stop() left it registered")
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) rounds: \(disagreements.prefix(3))")
    }
}

/// Busy-waits for about `iterations` × a few nanoseconds.
private func spin(_ iterations: Int) {
    let counter = Atomic<Int>(0)
    for _ in 0..<iterations { counter.add(1, ordering: .relaxed) }
}

/// Releases its parties together once all have arrived.
///
/// It spins, because a blocking wait would let one side run well before the
/// other. A party that
/// spun 100,000 times goes on alone: on a machine with every core busy the
/// other may not run for a while, and that round simply does not race.
private final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) { self.parties = parties }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        var spins = 0
        while arrived.load(ordering: .acquiring) < parties && spins < 100_000 { spins += 1 }
    }
}

import Broadcast
import Testing

/// Told a number; broadcast while the main actor is held.
protocol HeldListener: AnyObject {
    func held(_ number: Int)
}

/// Posted while the main actor is held.
struct HeldEvent: Sendable {
    let number: Int
}

/// A listener with no actor: called where a broadcast runs.
final class HeldFeed: HeldListener, Sendable {
    let log: EventLog

    init(log: EventLog) { self.log = log }

    func held(_ number: Int) { log.record("feed:\(number)") }
}

/// A main-actor screen with an isolated conformance, registered from its
/// main-actor initializer: called only on the main actor.
@MainActor final class HeldScreen {
    let log: EventLog

    init(log: EventLog, broadcaster: Broadcaster) {
        self.log = log
        broadcaster.addListener(self)
    }
}

extension HeldScreen: @MainActor HeldListener {
    @MainActor func held(_ number: Int) { log.record("screen:\(number)@\(mainQueueOrElsewhere)") }
}

/// Each way of waiting for scheduled calls: the one barrier. (The 0.1.0
/// waiting forms are built on it; `BroadcastCompatibilityTests` checks that a
/// cancelled one returns the calls made so far.)
enum WaitingForm: String, CaseIterable, Sendable {
    case waitForScheduledDeliveries
    case postThenWait

    /// Broadcasts (or posts) the number 1 and waits.
    func deliverAndWait(with broadcaster: Broadcaster) async -> Int? {
        switch self {
        case .waitForScheduledDeliveries:
            broadcaster.broadcast(to: HeldListener.self) { $0.held(1) }
        case .postThenWait:
            broadcaster.post(HeldEvent(number: 1))
        }
        await broadcaster.waitForScheduledDeliveries()
        return nil
    }

    /// The calls made before the main actor runs: the listener with no
    /// actor's.
    var callsWhileHeld: [String] { ["feed:1"] }

    /// What the form returns when cancelled while the main actor is held.
    var returnedWhileHeld: Int? { nil }
}

/// Pinned: every way of waiting for scheduled calls returns at once when its
/// task is cancelled, even while the actor the calls wait for cannot run,
/// and the awaitable forms then return the calls made so far; the calls
/// still scheduled are made once the actor runs.
///
/// So a lost or stuck delivery ends with the test's time limit instead of
/// keeping the test run alive forever. Fails (at the time limit, which
/// releases the main actor) when a wait ignores its task's cancellation.
@Suite("Pinned: cancelled waits return while the main actor is held", .timeLimit(.minutes(1)))
struct CancelledWaitTests {
    @Test(arguments: WaitingForm.allCases, [true, false])
    func aCancelledWaitReturnsWhileTheMainActorIsHeld(form: WaitingForm, cancelledBeforeWaiting: Bool) async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let feed = HeldFeed(log: log)
        broadcaster.addListener(feed)  // no actor
        let screen = await HeldScreen(log: log, broadcaster: broadcaster)
        let feedHandler = broadcaster.addHandler(for: HeldEvent.self) {
            log.record("feed:\($0.number)")
        }
        let screenHandler = await MainActor.run {
            broadcaster.addHandler(for: HeldEvent.self, calledOn: MainActor.shared) {
                log.record("screen:\($0.number)@\(mainQueueOrElsewhere)")
            }
        }

        let hold = await MainActorHold.hold()
        let started = Signal()
        let waiting = Task.detached {
            if cancelledBeforeWaiting { withUnsafeCurrentTask { $0?.cancel() } }
            started.fire()
            return await form.deliverAndWait(with: broadcaster)
        }
        if !cancelledBeforeWaiting {
            await started.wait()
            waiting.cancel()
        }
        // A wait that ignored its cancellation would return only once the
        // main actor runs: this test's time limit then releases it, and the
        // checks below fail.
        let returned = await withTaskCancellationHandler {
            await waiting.value
        } onCancel: {
            hold.release()
        }
        let calledWhileHeld = log.all
        hold.release()
        await broadcaster.waitForScheduledDeliveries()

        #expect(returned == form.returnedWhileHeld)
        #expect(calledWhileHeld == form.callsWhileHeld)
        #expect(log.all.sorted() == ["feed:1", "screen:1@main queue"])
        withExtendedLifetime((feed, screen, feedHandler, screenHandler)) {}
    }
}

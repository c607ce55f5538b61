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

/// Each way of waiting for scheduled calls.
enum WaitingForm: String, CaseIterable, Sendable {
    case waitForScheduledDeliveries
    case broadcastAndWait
    case broadcastAndWaitWithPayload
    case broadcastOnMainActorAndWait
    case postAndWait

    /// Broadcasts (or posts) the number 1 and waits; returns what the form
    /// returns (nil for the barrier, which returns nothing).
    func broadcastAndWait(with broadcaster: Broadcaster) async -> Int? {
        switch self {
        case .waitForScheduledDeliveries:
            broadcaster.broadcast(to: HeldListener.self) { $0.held(1) }
            await broadcaster.waitForScheduledDeliveries()
            return nil
        case .broadcastAndWait:
            return await broadcaster.broadcastAndWait(to: HeldListener.self) { $0.held(1) }
        case .broadcastAndWaitWithPayload:
            return await broadcaster.broadcastAndWait(to: HeldListener.self, with: 1) { $0.held($1) }
        case .broadcastOnMainActorAndWait:
            return await broadcaster.broadcastOnMainActorAndWait(to: HeldListener.self) { $0.held(1) }
        case .postAndWait:
            return await broadcaster.postAndWait(HeldEvent(number: 1))
        }
    }

    /// The calls made before the main actor runs: the listener with no
    /// actor's, except when every call goes to the main actor.
    var callsWhileHeld: [String] {
        self == .broadcastOnMainActorAndWait ? [] : ["feed:1"]
    }

    /// What the form returns when cancelled while the main actor is held:
    /// the calls made so far.
    var returnedWhileHeld: Int? {
        switch self {
        case .waitForScheduledDeliveries: nil
        case .broadcastOnMainActorAndWait: 0
        case .broadcastAndWait, .broadcastAndWaitWithPayload, .postAndWait: 1
        }
    }
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
        let feedHandler = broadcaster.addHandler(for: HeldEvent.self) { log.record("feed:\($0.number)") }
        let screenHandler = await MainActor.run {
            broadcaster.addHandler(for: HeldEvent.self) { log.record("screen:\($0.number)@\(mainQueueOrElsewhere)") }
        }

        let hold = await MainActorHold.hold()
        let started = Signal()
        let waiting = Task.detached {
            if cancelledBeforeWaiting { withUnsafeCurrentTask { $0?.cancel() } }
            started.fire()
            return await form.broadcastAndWait(with: broadcaster)
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

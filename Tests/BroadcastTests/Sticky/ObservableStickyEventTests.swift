import Broadcast
import BroadcastTesting
import Observation
import Testing

/// `ObservableStickyEvent`: the latest sticky event as an `Observable` value,
/// updated on the main actor, in order, never losing the last state.
@Suite("Sticky state as an Observable value", .timeLimit(.minutes(1)))
struct ObservableStickyEventTests {
    struct Session: Sendable, Equatable { let user: String }

    @MainActor @Test func aValueCreatedAfterTheStateWasSetStartsWithIt() {
        let broadcaster = Broadcaster()
        broadcaster.post(Session(user: "ada"), sticky: true)
        let session = ObservableStickyEvent(for: Session.self, on: broadcaster)
        #expect(session.value == Session(user: "ada"))
    }

    @MainActor @Test func aChangeMadeOnTheMainActorIsSeenAtOnceAndAClearMakesItNil() {
        let broadcaster = Broadcaster()
        let session = ObservableStickyEvent(for: Session.self, on: broadcaster)
        #expect(session.value == nil)
        broadcaster.post(Session(user: "ada"), sticky: true)
        #expect(session.value == Session(user: "ada"))
        broadcaster.setStickyEvent(Session(user: "grace"))
        #expect(session.value == Session(user: "grace"))
        broadcaster.clearStickyEvent(for: Session.self)
        #expect(session.value == nil)
        broadcaster.post(Session(user: "alan"), sticky: true)
        _ = broadcaster.takeStickyEvent(for: Session.self)
        #expect(session.value == nil)
        broadcaster.post(Session(user: "barbara"), sticky: true)
        broadcaster.clearAllStickyBroadcasts()
        #expect(session.value == nil)
    }

    @MainActor @Test func withObservationTrackingIsToldOfAChange() {
        let broadcaster = Broadcaster()
        let session = ObservableStickyEvent(for: Session.self, on: broadcaster)
        let changes = Locked(0)
        withObservationTracking {
            _ = session.value
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        broadcaster.post(Session(user: "ada"), sticky: true)
        #expect(changes.withLock { $0 } == 1)
    }

    @Test func changesMadeOffTheMainActorReachTheValueOnTheMainActorEndingOnTheLastState() async {
        let broadcaster = Broadcaster()
        let session = await MainActor.run { ObservableStickyEvent(for: Session.self, on: broadcaster) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for n in 0..<250 {
                        if n % 50 == 49 {
                            broadcaster.clearStickyEvent(for: Session.self)
                        } else {
                            broadcaster.post(Session(user: "\(thread)-\(n)"), sticky: true)
                        }
                    }
                }
            }
        }
        broadcaster.post(Session(user: "last"), sticky: true)
        await broadcaster.waitForScheduledDeliveries()
        #expect(await session.value == Session(user: "last"))
        broadcaster.clearStickyEvent(for: Session.self)
        await broadcaster.waitForScheduledDeliveries()
        #expect(await session.value == nil)
    }

    /// Read on the main actor after each update, the states one writer posted
    /// only move forward, and the value ends on the last.
    @Test func theValueOnlyMovesForward() async {
        let broadcaster = Broadcaster()
        let seen = Locked<[Int]>([])
        let watcher = await MainActor.run {
            let session = ObservableStickyEvent(for: Int.self, on: broadcaster)
            let watcher = ValueWatcher(session) { value in if let value { seen.withLock { $0.append(value) } } }
            watcher.watch()
            return watcher
        }
        await Task.detached {
            for n in 1...2_000 { broadcaster.post(n, sticky: true) }
        }.value
        await broadcaster.waitForScheduledDeliveries()
        #expect(await watcher.session.value == 2_000)
        let values = seen.withLock { $0 }
        #expect(!values.isEmpty)
        #expect(values == values.sorted(), "an older state followed a newer one")
        withExtendedLifetime(watcher) {}
    }

    @MainActor @Test func releasingItUnregistersIt() {
        let broadcaster = Broadcaster()
        var session: ObservableStickyEvent<Session>? = ObservableStickyEvent(for: Session.self, on: broadcaster)
        #expect(broadcaster.registrationCount == 1)
        session = nil
        #expect(broadcaster.registrationCount == 0)
        broadcaster.post(Session(user: "ada"), sticky: true)  // nothing is called
        withExtendedLifetime(session) {}
    }
}

/// Re-installs observation tracking on the main actor after each change, and
/// hands every value it reads to `onValue`.
@MainActor final class ValueWatcher<Event: Sendable> {
    let session: ObservableStickyEvent<Event>
    let onValue: @MainActor (Event?) -> Void

    init(_ session: ObservableStickyEvent<Event>, onValue: @escaping @MainActor (Event?) -> Void) {
        self.session = session
        self.onValue = onValue
    }

    func watch() {
        let value = withObservationTracking {
            session.value
        } onChange: { [weak self] in
            // Called where the change is made, before it is made: read on
            // the main actor once the change is done.
            Task { @MainActor in self?.watch() }
        }
        onValue(value)
    }
}

extension ObservableStickyEventTests {
    /// SE-0475's `Observations` follows the value as an asynchronous
    /// sequence: it coalesces changes until the next suspension point, so it
    /// sees the last state, not necessarily every one.
    @MainActor @Test func observationsSeesTheLastState() async throws {
        let broadcaster = Broadcaster()
        let session = ObservableStickyEvent(for: Session.self, on: broadcaster)
        let seen = BroadcastRecorder<String>()
        let sawTheLast = BroadcastRecorder<Bool>()
        let reader = Task { @MainActor in
            for await value in Observations({ session.value }) {
                seen.record(value?.user ?? "none")
                if value?.user == "grace" { sawTheLast.record(true) }
            }
        }
        await Task.detached {
            broadcaster.post(Session(user: "ada"), sticky: true)
            broadcaster.post(Session(user: "grace"), sticky: true)
        }.value
        await broadcaster.waitForScheduledDeliveries()
        try await sawTheLast.waitForValues(count: 1, timeout: .seconds(30))
        reader.cancel()
        // The changes may coalesce: both states, or the last only, in order.
        let values = seen.values
        #expect(values == ["none", "ada", "grace"] || values == ["none", "grace"], "\(values)")
    }
}

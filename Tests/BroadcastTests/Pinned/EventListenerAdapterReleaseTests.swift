import Broadcast
import Foundation
import Testing

/// A temperature posted as a value to the release tests' listeners.
struct Temperature: Sendable {
    let degrees: Int
}

/// An ``EventListener`` of temperatures that says when it is deallocated.
final class Thermometer: EventListener, Sendable {
    let log: EventLog
    let released: EventLog

    init(log: EventLog, released: EventLog) {
        self.log = log
        self.released = released
    }

    func receive(_ event: Temperature) { log.record("\(event.degrees)") }

    deinit { released.record("thermometer") }
}

/// Pinned: the typed call a post keeps for an ``EventListener`` object never
/// keeps the object alive.
///
/// The typed call (its adapter) is kept in the object's entry. Each test
/// posts twice, so that the first post makes the typed call and the
/// second uses it, then lets the listener go: it is deallocated at once, and
/// later posts do not call it.
@Suite("Pinned: an EventListener's typed call never keeps its listener alive", .timeLimit(.minutes(1)))
struct EventListenerAdapterReleaseTests {
    /// What a run saw: the posts' counts, and whether the listener was gone
    /// once its last reference was dropped.
    struct Run: Sendable {
        var counts: [Int] = []
        var wasReleased = false
    }

    /// Registers a thermometer with `register` (which returns what keeps
    /// the registration, if anything), posts twice with `post`, drops the
    /// thermometer and posts again.
    static func run(
        register: (Broadcaster, Thermometer) -> AnyObject?, post: (Broadcaster, Int) -> Int, log: EventLog,
        released: EventLog
    ) -> Run {
        let broadcaster = Broadcaster(onDiagnostic: { _ in })
        var run = Run()
        var thermometer: Thermometer? = Thermometer(log: log, released: released)
        weak let watched = thermometer
        let registration = register(broadcaster, thermometer!)
        run.counts.append(post(broadcaster, 1))
        run.counts.append(post(broadcaster, 2))
        thermometer = nil
        run.wasReleased = watched == nil
        run.counts.append(post(broadcaster, 3))
        withExtendedLifetime(registration) {}
        return run
    }

    static func expectReleased(_ run: Run, log: EventLog, released: EventLog) {
        #expect(run.counts == [1, 1, 0])
        #expect(run.wasReleased, "the thermometer outlived its last reference")
        #expect(released.all == ["thermometer"])
        #expect(log.all == ["1", "2"])
    }

    @Test func aListenerWithNoActorPostedToFromAPlainThread() async {
        let log = EventLog()
        let released = EventLog()
        // No actor, off the main queue, outside every task: the typed call
        // made here holds anywhere.
        let run = await onNewThread {
            Self.run(
                register: { broadcaster, thermometer in
                    broadcaster.addListener(thermometer)
                    return nil
                }, post: { $0.post(Temperature(degrees: $1)) }, log: log,
                released: released)
        }
        Self.expectReleased(run, log: log, released: released)
    }

    @Test @MainActor func aListenerRegisteredAndPostedToOnTheMainActor() {
        let log = EventLog()
        let released = EventLog()
        let run = Self.run(
            register: { broadcaster, thermometer in
                broadcaster.addListener(thermometer)
                return nil
            }, post: { $0.post(Temperature(degrees: $1)) }, log: log,
            released: released)
        Self.expectReleased(run, log: log, released: released)
    }

    /// An actor that registers a thermometer to be called on it, and posts
    /// there (written out here: a closure passed to `run` would post from
    /// no actor).
    actor Station {
        func run(log: EventLog, released: EventLog) -> Run {
            let broadcaster = Broadcaster(onDiagnostic: { _ in })
            var run = Run()
            var thermometer: Thermometer? = Thermometer(log: log, released: released)
            weak let watched = thermometer
            broadcaster.addListener(thermometer!, calledOn: self)
            run.counts.append(broadcaster.post(Temperature(degrees: 1)))
            run.counts.append(broadcaster.post(Temperature(degrees: 2)))
            thermometer = nil
            run.wasReleased = watched == nil
            run.counts.append(broadcaster.post(Temperature(degrees: 3)))
            return run
        }
    }

    @Test func aListenerCalledOnAnActorPostedToThere() async {
        let log = EventLog()
        let released = EventLog()
        let run = await Station().run(log: log, released: released)
        Self.expectReleased(run, log: log, released: released)
    }

    @Test func aListenerOfOneRegistrationPostedToFromAPlainThread() async {
        let log = EventLog()
        let released = EventLog()
        let run = await onNewThread {
            Self.run(
                register: { broadcaster, thermometer in
                    let registration = ListenerRegistration(
                        thermometer, for: (any EventListener<Temperature>).self, on: broadcaster)
                    registration.start()
                    return registration
                }, post: { $0.post(Temperature(degrees: $1)) }, log: log, released: released)
        }
        Self.expectReleased(run, log: log, released: released)
    }
}

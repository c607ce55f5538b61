import Broadcast
import Testing

/// Semantic 3 — Filtering by dynamic conformance, including protocol and
/// class inheritance.
@Suite("Filtering")
struct FilteringTests {
    protocol Base: AnyObject { func base(_ n: Int) }
    protocol Refined: Base { func refined(_ n: Int) }
    protocol Unrelated: AnyObject { func unrelated(_ n: Int) }

    final class BaseSpy: Base, Sendable {
        let log: EventLog
        init(_ log: EventLog) { self.log = log }
        func base(_ n: Int) { log.record("base-spy:base:\(n)") }
    }

    final class RefinedSpy: Refined, Sendable {
        let log: EventLog
        init(_ log: EventLog) { self.log = log }
        func base(_ n: Int) { log.record("refined-spy:base:\(n)") }
        func refined(_ n: Int) { log.record("refined-spy:refined:\(n)") }
    }

    final class UnrelatedSpy: Unrelated, Sendable {
        let log: EventLog
        init(_ log: EventLog) { self.log = log }
        func unrelated(_ n: Int) { log.record("unrelated-spy:unrelated:\(n)") }
    }

    class ConformingParent: Base, @unchecked Sendable {
        // @unchecked Sendable: the only stored property is the `EventLog`,
        // itself Sendable (a lock guards its array); the class is non-final
        // only so that a subclass can be declared.
        let log: EventLog
        init(_ log: EventLog) { self.log = log }
        func base(_ n: Int) { log.record("\(type(of: self)):base:\(n)") }
    }

    final class Subclass: ConformingParent, @unchecked Sendable {}
    // @unchecked Sendable: adds no stored property to ConformingParent.

    @Test func listenerOfARefinedProtocolReceivesBroadcastsToItsParent() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let baseSpy = BaseSpy(log)
        let refinedSpy = RefinedSpy(log)
        let unrelatedSpy = UnrelatedSpy(log)
        broadcaster.addListener(unrelatedSpy)
        broadcaster.addListener(baseSpy)
        broadcaster.addListener(refinedSpy)

        #expect(broadcaster.broadcast(to: Base.self) { $0.base(1) } == 2)
        #expect(broadcaster.broadcast(to: Refined.self) { $0.refined(2) } == 1)
        #expect(broadcaster.broadcast(to: Unrelated.self) { $0.unrelated(3) } == 1)

        #expect(
            log.all == [
                "base-spy:base:1", "refined-spy:base:1",
                "refined-spy:refined:2",
                "unrelated-spy:unrelated:3",
            ])
        #expect(broadcaster.listenerCount(of: Base.self) == 2)
        #expect(broadcaster.listenerCount(of: Refined.self) == 1)
        #expect(
            broadcaster.listeners(of: Base.self).map { ObjectIdentifier($0) }
                == [ObjectIdentifier(baseSpy), ObjectIdentifier(refinedSpy)])
        withExtendedLifetime(unrelatedSpy) {}
    }

    @Test func subclassOfAConformingClassReceivesTheBroadcast() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let parent = ConformingParent(log)
        let child = Subclass(log)
        let other = UnrelatedSpy(log)
        broadcaster.addListener(parent)
        broadcaster.addListener(other)
        broadcaster.addListener(child)

        #expect(broadcaster.broadcast(to: Base.self) { $0.base(1) } == 2)
        // Broadcasting to a class type filters by class inheritance too.
        #expect(broadcaster.broadcast(to: ConformingParent.self) { $0.base(2) } == 2)
        #expect(broadcaster.broadcast(to: Subclass.self) { $0.base(3) } == 1)
        #expect(
            log.all == [
                "ConformingParent:base:1", "Subclass:base:1",
                "ConformingParent:base:2", "Subclass:base:2",
                "Subclass:base:3",
            ])
        withExtendedLifetime((parent, child, other)) {}
    }

    @Test func filterStaysExactAsListenersComeAndGo() {
        // The per-protocol index is built on the first broadcast, then kept
        // in step: later additions and removals must still be filtered.
        let broadcaster = Broadcaster()
        let log = EventLog()
        let first = BaseSpy(log)
        broadcaster.addListener(first)
        broadcaster.broadcast(to: Base.self) { $0.base(1) }
        broadcaster.broadcast(to: Refined.self) { $0.refined(1) }

        let refined = RefinedSpy(log)
        let unrelated = UnrelatedSpy(log)
        broadcaster.addListener(unrelated)
        broadcaster.addListener(refined)
        broadcaster.broadcast(to: Base.self) { $0.base(2) }
        broadcaster.broadcast(to: Refined.self) { $0.refined(2) }

        broadcaster.removeListener(first)
        broadcaster.broadcast(to: Base.self) { $0.base(3) }

        #expect(
            log.all == [
                "base-spy:base:1",
                "base-spy:base:2", "refined-spy:base:2",
                "refined-spy:refined:2",
                "refined-spy:base:3",
            ])
        withExtendedLifetime((first, refined, unrelated)) {}
    }
}

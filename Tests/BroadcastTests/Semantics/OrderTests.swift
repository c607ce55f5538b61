import Broadcast
import Testing

/// Semantic 4 — Order: registration order; re-adding after removal moves a
/// listener to the end.
@Suite("Order")
struct OrderTests {
    @Test func listenersAreCalledInRegistrationOrder() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let names = ["e", "b", "d", "a", "c"]
        let spies = names.map { PingSpy($0, log: log) }
        for spy in spies { broadcaster.addListener(spy) }
        broadcaster.ping(1)
        #expect(log.all == names.map { "\($0):1" })
        #expect(broadcaster.listeners(of: Ping.self).map { ($0 as! PingSpy).name } == names)
        withExtendedLifetime(spies) {}
    }

    @Test func orderSurvivesReleasesAndCompaction() {
        // Enough listeners and releases to make the table compact.
        let broadcaster = Broadcaster()
        let log = EventLog()
        var spies: [PingSpy?] = (0..<60).map { PingSpy("\($0)", log: log) }
        for spy in spies { broadcaster.addListener(spy!) }
        broadcaster.ping(0)
        for index in spies.indices where index % 3 != 1 { spies[index] = nil }
        for extra in 60..<80 {
            spies.append(PingSpy("\(extra)", log: log))
            broadcaster.addListener(spies.last!!)
        }

        let before = log.count
        broadcaster.ping(1)
        let expected = spies.compactMap { $0.map { "\($0.name):1" } }
        #expect(Array(log.all.dropFirst(before)) == expected)
        #expect(expected.count == 40)
        withExtendedLifetime(spies) {}
    }

    @Test func reAddingAfterRemovalMovesToTheEnd() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let a = PingSpy("a", log: log)
        let b = PingSpy("b", log: log)
        let c = PingSpy("c", log: log)
        for spy in [a, b, c] { broadcaster.addListener(spy) }
        broadcaster.ping(1)  // the index exists from here on

        broadcaster.removeListener(a)
        broadcaster.addListener(a)
        broadcaster.ping(2)

        broadcaster.removeListener(b)
        broadcaster.addListener(b)
        broadcaster.ping(3)

        #expect(log.all == ["a:1", "b:1", "c:1", "b:2", "c:2", "a:2", "c:3", "a:3", "b:3"])
        withExtendedLifetime((a, b, c)) {}
    }

    @Test func reAddingBeforeAnyBroadcastAlsoMovesToTheEnd() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let a = PingSpy("a", log: log)
        let b = PingSpy("b", log: log)
        broadcaster.addListener(a)
        broadcaster.addListener(b)
        broadcaster.removeListener(a)
        broadcaster.addListener(a)
        broadcaster.ping(1)
        #expect(log.all == ["b:1", "a:1"])
        withExtendedLifetime((a, b)) {}
    }
}

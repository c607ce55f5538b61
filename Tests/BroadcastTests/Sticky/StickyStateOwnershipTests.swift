import Broadcast
import Testing

/// A `StickyEventState` belongs to the broadcaster it was read from: another
/// broadcaster's conditional clear returns false and clears nothing.
@Suite("Sticky event states belong to their broadcaster", .timeLimit(.minutes(1)))
struct StickyStateOwnershipTests {
    struct DeepLink: Sendable, Equatable { let path: String }

    @Test func anotherBroadcastersStateClearsNothingHere() throws {
        let here = Broadcaster()
        let there = Broadcaster()
        // The same history on both: each has had exactly one change.
        here.post(DeepLink(path: "/here"), sticky: true)
        there.post(DeepLink(path: "/there"), sticky: true)
        let readThere = try #require(there.stickyEventState(for: DeepLink.self))

        #expect(here.clearStickyEvent(ifStill: readThere) == false)
        #expect(here.stickyEvent(for: DeepLink.self) == DeepLink(path: "/here"))
        // Where it was read, it still clears.
        #expect(there.clearStickyEvent(ifStill: readThere) == true)
        #expect(there.stickyEvent(for: DeepLink.self) == nil)
    }

    @Test func aStateOfABroadcasterGoneClearsNothingInANewOne() throws {
        let readEarlier = try #require(
            {
                let gone = Broadcaster()
                gone.setStickyEvent(DeepLink(path: "/gone"))
                return gone.stickyEventState(for: DeepLink.self)
            }())
        let fresh = Broadcaster()
        fresh.setStickyEvent(DeepLink(path: "/fresh"))
        #expect(fresh.clearStickyEvent(ifStill: readEarlier) == false)
        #expect(fresh.stickyEvent(for: DeepLink.self) == DeepLink(path: "/fresh"))
    }
}

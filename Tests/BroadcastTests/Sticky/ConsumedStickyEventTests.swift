import Broadcast
import Dispatch
import Testing

/// State consumed once: taking a sticky event, clearing it only if it is
/// still the state read, and handlers that take it when they run.
@Suite("Sticky events consumed once", .timeLimit(.minutes(1)))
struct ConsumedStickyEventTests {
    struct DeepLink: Sendable, Equatable { let path: String }

    @Test func takingReadsAndClearsInOneStep() {
        let broadcaster = Broadcaster()
        broadcaster.post(DeepLink(path: "/a"), sticky: true)
        #expect(broadcaster.takeStickyEvent(for: DeepLink.self) == DeepLink(path: "/a"))
        #expect(broadcaster.takeStickyEvent(for: DeepLink.self) == nil)
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
    }

    @Test func twoThreadsTakingNeverBothGetIt() async {
        let broadcaster = Broadcaster()
        for round in 0..<500 {
            broadcaster.post(DeepLink(path: "/\(round)"), sticky: true)
            let taken = Locked<[DeepLink]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                if let link = broadcaster.takeStickyEvent(for: DeepLink.self) { taken.withLock { $0.append(link) } }
            }
            #expect(taken.withLock { $0 } == [DeepLink(path: "/\(round)")], "round \(round)")
        }
    }

    @Test func clearingIfStillTheStateReadSparesANewerPostOfAnEqualValue() {
        let broadcaster = Broadcaster()
        broadcaster.post(DeepLink(path: "/same"), sticky: true)
        let seen = broadcaster.stickyEventState(for: DeepLink.self)
        #expect(seen?.value == DeepLink(path: "/same"))
        broadcaster.post(DeepLink(path: "/same"), sticky: true)  // equal value, newer state
        #expect(seen.map { broadcaster.clearStickyEvent(ifStill: $0) } == false)
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/same"))

        let current = broadcaster.stickyEventState(for: DeepLink.self)
        #expect(current.map { broadcaster.clearStickyEvent(ifStill: $0) } == true)
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        #expect(current.map { broadcaster.clearStickyEvent(ifStill: $0) } == false)
    }

    @Test func clearingIfStillAfterATakeOrAClearDoesNothing() {
        let broadcaster = Broadcaster()
        broadcaster.setStickyEvent(DeepLink(path: "/a"))
        let seen = broadcaster.stickyEventState(for: DeepLink.self)
        broadcaster.clearStickyEvent(for: DeepLink.self)
        broadcaster.setStickyEvent(DeepLink(path: "/a"))
        #expect(seen.map { broadcaster.clearStickyEvent(ifStill: $0) } == false)
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/a"))
    }

    /// Posts, takes and conditional clears race from several threads: every
    /// posted state is taken at most once, a conditional clear removes only
    /// the state it read, and what is left is the last state posted, unless
    /// something took or cleared it afterwards.
    @Test func postsTakesAndClearsRacingNeverHandOutAStateTwice() async {
        let broadcaster = Broadcaster()
        let taken = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            for n in 0..<2_000 {
                switch worker % 3 {
                case 0:
                    broadcaster.post(n * 6 + worker, sticky: true)
                case 1:
                    if let value = broadcaster.takeStickyEvent(for: Int.self) { taken.withLock { $0.append(value) } }
                default:
                    if let state = broadcaster.stickyEventState(for: Int.self) {
                        _ = broadcaster.clearStickyEvent(ifStill: state)
                    }
                }
            }
        }
        let all = taken.withLock { $0 }
        #expect(Set(all).count == all.count, "a state was taken twice")
        if let left = broadcaster.stickyEvent(for: Int.self) { #expect(!all.contains(left)) }
    }

    @Test func aConsumingHandlerTakesTheReplayedStateAndALaterHandlerGetsNone() {
        let broadcaster = Broadcaster()
        broadcaster.post(DeepLink(path: "/once"), sticky: true)
        let opened = Locked<[String]>([])
        let first = broadcaster.addHandler(for: DeepLink.self, receivingSticky: true, consumingSticky: true) { link in
            opened.withLock { $0.append("first \(link.path)") }
        }
        let second = broadcaster.addHandler(for: DeepLink.self, receivingSticky: true, consumingSticky: true) { link in
            opened.withLock { $0.append("second \(link.path)") }
        }
        let plain = broadcaster.addHandler(for: DeepLink.self, receivingSticky: true) { link in
            opened.withLock { $0.append("plain \(link.path)") }
        }
        #expect(opened.withLock { $0 } == ["first /once"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        withExtendedLifetime((first, second, plain)) {}
    }

    @Test func ofSeveralConsumersCalledAtOnceTheFirstInRegistrationOrderTakesALivePost() {
        let broadcaster = Broadcaster()
        let opened = Locked<[String]>([])
        let plainBefore = broadcaster.addHandler(for: DeepLink.self) { _ in
            opened.withLock { $0.append("plain \($0.count)") }
        }
        let first = broadcaster.addHandler(for: DeepLink.self, consumingSticky: true) { _ in
            opened.withLock { $0.append("first") }
        }
        let second = broadcaster.addHandler(for: DeepLink.self, consumingSticky: true) { _ in
            opened.withLock { $0.append("second") }
        }
        broadcaster.post(DeepLink(path: "/live"), sticky: true)
        #expect(opened.withLock { $0 } == ["plain 0", "first"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)

        // A post that is not sticky is delivered to consumers as usual.
        broadcaster.post(DeepLink(path: "/not-sticky"))
        #expect(opened.withLock { $0 } == ["plain 0", "first", "plain 2", "first", "second"])
        withExtendedLifetime((plainBefore, first, second)) {}
    }

    @Test func aScreenThatGoesAwayBeforeItsScheduledCallRunsTakesNothing() async {
        let broadcaster = Broadcaster()
        let opened = Locked<[String]>([])
        let leaving = Locked<BroadcastToken?>(nil)
        await MainActor.run {
            let token = broadcaster.addHandler(for: DeepLink.self, calledOn: MainActor.shared, consumingSticky: true) {
                link in opened.withLock { $0.append("leaving \(link.path)") }
            }
            leaving.withLock { $0 = token }
        }
        // Posted off the main actor while it is busy: the call is scheduled
        // there, and the screen goes away before it runs.
        let hold = await MainActorHold.hold()
        _ = await Task.detached { broadcaster.post(DeepLink(path: "/kept"), sticky: true) }.value
        let gone = leaving.withLock { token in
            defer { token = nil }
            return token
        }
        _ = consume gone  // released here, outside the lock
        hold.release()
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.withLock { $0 } == [])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == DeepLink(path: "/kept"))

        let next = await MainActor.run {
            broadcaster.addHandler(
                for: DeepLink.self, calledOn: MainActor.shared, receivingSticky: true, consumingSticky: true
            ) { link in opened.withLock { $0.append("next \(link.path)") } }
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(opened.withLock { $0 } == ["next /kept"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        withExtendedLifetime(next) {}
    }

    @Test func aConsumingHandlerSkipsAStateReplacedBeforeItsCallRan() async {
        let broadcaster = Broadcaster()
        let opened = Locked<[String]>([])
        let token = await MainActor.run {
            broadcaster.addHandler(for: DeepLink.self, calledOn: MainActor.shared, consumingSticky: true) { link in
                opened.withLock { $0.append(link.path) }
            }
        }
        let hold = await MainActorHold.hold()
        await Task.detached {
            broadcaster.post(DeepLink(path: "/old"), sticky: true)
            broadcaster.post(DeepLink(path: "/new"), sticky: true)
        }.value
        hold.release()
        await broadcaster.waitForScheduledDeliveries()
        // The call for /old ran after /new replaced it: it took nothing and
        // did not run; /new was taken by its own call.
        #expect(opened.withLock { $0 } == ["/new"])
        #expect(broadcaster.stickyEvent(for: DeepLink.self) == nil)
        withExtendedLifetime(token) {}
    }
}

import Broadcast
import Dispatch
import Foundation
import Testing

/// The package hook that tells the PostgreSQL relay each change of a sticky
/// event's state: what reaches it, in which order, and where it runs.
@Suite("Sticky event changes told to an observer", .timeLimit(.minutes(1)))
struct StickyEventChangeTests {
    struct Mode: Sendable, Equatable { let name: String }

    /// What an observer saw: `set(name)` or `cleared`.
    enum Seen: Equatable, Sendable {
        case set(String)
        case cleared
    }

    private static func observe(
        _ broadcaster: Broadcaster, into seen: Locked<[Seen]>,
        also: @escaping @Sendable (StickyEventChange<Mode>) -> Void = { _ in }
    ) -> BroadcastToken {
        broadcaster.observeStickyEventChanges(of: Mode.self) { change in
            switch change {
            case .set(let mode): seen.withLock { $0.append(.set(mode.name)) }
            case .cleared: seen.withLock { $0.append(.cleared) }
            }
            also(change)
        }
    }

    @Test func eachChangeReachesTheObserverOnceInOrderAndATakeDoesNot() throws {
        let broadcaster = Broadcaster()
        let seen = Locked<[Seen]>([])
        let token = Self.observe(broadcaster, into: seen)
        broadcaster.post(Mode(name: "posted"), sticky: true)
        broadcaster.post(Mode(name: "not sticky"))
        broadcaster.setStickyEvent(Mode(name: "set"))
        broadcaster.clearStickyEvent(for: Mode.self)
        broadcaster.setStickyEvent(Mode(name: "to clear if still"))
        let state = try #require(broadcaster.stickyEventState(for: Mode.self))
        #expect(broadcaster.clearStickyEvent(ifStill: state))
        #expect(!broadcaster.clearStickyEvent(ifStill: state))  // changes nothing: not told
        broadcaster.post(Mode(name: "taken"), sticky: true)
        #expect(broadcaster.takeStickyEvent(for: Mode.self) == Mode(name: "taken"))
        broadcaster.post(Mode(name: "reset"), sticky: true)
        broadcaster.clearAllStickyBroadcasts()
        #expect(
            seen.withLock { $0 } == [
                .set("posted"), .set("set"), .cleared, .set("to clear if still"), .cleared, .set("taken"),
                .set("reset"),
            ])
        token.cancel()
        broadcaster.post(Mode(name: "after cancel"), sticky: true)
        #expect(seen.withLock { $0.count } == 7)
    }

    @Test func aConsumingHandlersTakeIsNotToldAsAClear() {
        let broadcaster = Broadcaster()
        let seen = Locked<[Seen]>([])
        let token = Self.observe(broadcaster, into: seen)
        broadcaster.post(Mode(name: "consumed"), sticky: true)
        let consumed = Locked<[String]>([])
        let consumer = broadcaster.addHandler(for: Mode.self, receivingSticky: true, consumingSticky: true) { mode in
            consumed.withLock { $0.append(mode.name) }
        }
        #expect(consumed.withLock { $0 } == ["consumed"])
        #expect(broadcaster.stickyEvent(for: Mode.self) == nil)
        #expect(seen.withLock { $0 } == [.set("consumed")])
        withExtendedLifetime((token, consumer)) {}
    }

    /// The observer runs after the change, with no lock held.
    ///
    /// It reads the new state and makes a change of its own, which it is
    /// told of before its first call returns. Under the broadcaster's lock
    /// the read would deadlock, and the wait below would time out.
    @Test func anObserverRunsAfterTheChangeWithNoLockHeldAndMayChangeTheStateInTurn() {
        let broadcaster = Broadcaster()
        let seen = Locked<[Seen]>([])
        let readInObserver = Locked<[String?]>([])
        let token = Self.observe(broadcaster, into: seen) { change in
            readInObserver.withLock { $0.append(broadcaster.stickyEvent(for: Mode.self)?.name) }
            if case .set(let mode) = change, mode.name == "outer" {
                broadcaster.setStickyEvent(Mode(name: "nested"))
            }
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            broadcaster.post(Mode(name: "outer"), sticky: true)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the post did not return within 10 s")
        #expect(seen.withLock { $0 } == [.set("outer"), .set("nested")])
        #expect(readInObserver.withLock { $0 } == ["outer", "nested"])
        #expect(broadcaster.stickyEvent(for: Mode.self) == Mode(name: "nested"))
        withExtendedLifetime(token) {}
    }

    @Test func theObserverRunsOnTheThreadThatMadeTheChange() {
        let broadcaster = Broadcaster()
        let threads = Locked<[Bool]>([])
        let changingThread = Locked<Thread?>(nil)
        let token = broadcaster.observeStickyEventChanges(of: Mode.self) { _ in
            threads.withLock { $0.append(Thread.current == changingThread.withLock { $0 }) }
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            changingThread.withLock { $0 = Thread.current }
            broadcaster.setStickyEvent(Mode(name: "a"))
            broadcaster.clearStickyEvent(for: Mode.self)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(threads.withLock { $0 } == [true, true])
        withExtendedLifetime(token) {}
    }
}

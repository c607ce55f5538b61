import Synchronization
import Testing

@testable import Broadcast

/// A handler's capture whose release is observed: `released` runs in its
/// `deinit`, on the thread that lets go of the last reference.
final class ObservedCapture: Sendable {
    let released: @Sendable () -> Void
    init(released: @escaping @Sendable () -> Void) { self.released = released }
    deinit { released() }
}

/// Whether something happened, readable from any thread.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// The broadcaster holds a token's handler strongly while the token lives,
/// so that a post makes no weak load per handler call; what the handler
/// captures is released as soon as nothing can call it: when its token is
/// cancelled or released (or its owner, which stores the token, goes),
/// after the broadcaster's lock, while the broadcaster lives on.
@Suite("Reliability: a held handler's captures", .timeLimit(.minutes(1)))
struct HeldHandlerReleaseTests {
    /// A broadcaster with `handler`'s post indexed and a token capturing an
    /// ``ObservedCapture``; `released` is set when the capture goes.
    private func registered(
        on broadcaster: Broadcaster, released: Flag, calls: LifeCounter
    ) -> BroadcastToken {
        let capture = ObservedCapture(released: released.set)
        let token = broadcaster.addHandler(for: Int.self) { _ in
            withExtendedLifetime(capture) { calls.bump() }
        }
        #expect(broadcaster.post(1) == 1, "the post's index lists the handler")
        return token
    }

    @Test("cancelling the token releases the handler's captures before cancel() returns")
    func cancelReleases() {
        let broadcaster = Broadcaster()
        let released = Flag()
        let calls = LifeCounter()
        let token = registered(on: broadcaster, released: released, calls: calls)
        #expect(!released.isSet, "the token holds the handler")
        token.cancel()
        #expect(released.isSet)
        #expect(broadcaster.post(2) == 0)
        #expect(calls.count == 1)
        withExtendedLifetime(token) {}
    }

    @Test("releasing the token releases the handler's captures at once")
    func tokenReleaseReleases() {
        let broadcaster = Broadcaster()
        let released = Flag()
        let calls = LifeCounter()
        var token: BroadcastToken? = registered(on: broadcaster, released: released, calls: calls)
        #expect(token?.isCancelled == false)
        #expect(!released.isSet)
        token = nil
        #expect(released.isSet)
        #expect(broadcaster.post(2) == 0)
        #expect(broadcaster.registrationCount == 0)
    }

    @Test("an owner that stores its token releases the handler's captures when it goes")
    func ownerGoingReleases() {
        final class Owner: Sendable {
            let token = Mutex<BroadcastToken?>(nil)
        }
        let broadcaster = Broadcaster()
        let released = Flag()
        let calls = LifeCounter()
        var owner: Owner? = Owner()
        do {
            let capture = ObservedCapture(released: released.set)
            let token = broadcaster.addHandler(for: Int.self, owner: owner!) { _, _ in
                withExtendedLifetime(capture) { calls.bump() }
            }
            owner!.token.withLock { $0 = token }
        }
        #expect(broadcaster.post(1) == 1)
        #expect(calls.count == 1)
        #expect(!released.isSet)
        owner = nil
        #expect(released.isSet)
        #expect(broadcaster.post(2) == 0)
    }

    @Test("a capture released by cancel() may call back into the broadcaster from its deinit")
    func deinitCallsBack() {
        let broadcaster = Broadcaster()
        let other = LifeCounter()
        let kept = broadcaster.addHandler(for: Int.self) { _ in other.bump() }
        let calledBack = Mutex<(posted: Int, registered: Int)?>(nil)
        var token: BroadcastToken?
        do {
            let capture = ObservedCapture { [broadcaster] in
                // Each of these takes the lock: under it, the process would stop.
                let posted = broadcaster.post(7)
                let token = broadcaster.addHandler(for: String.self) { _ in }
                let registered = broadcaster.registrationCount
                token.cancel()
                calledBack.withLock { $0 = (posted, registered) }
            }
            token = broadcaster.addHandler(for: Int.self) { _ in withExtendedLifetime(capture) {} }
        }
        #expect(broadcaster.post(1) == 2)
        token?.cancel()
        let result = calledBack.withLock { $0 }
        #expect(result?.posted == 1, "the deinit's post reached the other handler")
        #expect(result?.registered == 2)
        #expect(other.count == 2)
        token = nil
        withExtendedLifetime(kept) {}
    }

    @Test("a handler cancelled during a post is not called by it, and released once it returns")
    func cancelledDuringPost() {
        let broadcaster = Broadcaster()
        let released = Flag()
        let calls = LifeCounter()
        let victim = Mutex<BroadcastToken?>(nil)
        let releasedDuringPost = Flag()
        let canceller = broadcaster.addHandler(for: Int.self) { _ in
            let token = victim.withLock { $0 }
            token?.cancel()
            if released.isSet { releasedDuringPost.set() }
        }
        do {
            let capture = ObservedCapture(released: released.set)
            let token = broadcaster.addHandler(for: Int.self) { _ in
                withExtendedLifetime(capture) { calls.bump() }
            }
            victim.withLock { $0 = token }
        }
        #expect(broadcaster.post(1) == 1, "the canceller's call only")
        #expect(calls.count == 0, "the rest of the post skips a handler cancelled on its thread")
        #expect(!releasedDuringPost.isSet, "the post under way still held the handler")
        #expect(released.isSet, "released once the post returned, the token still stored")
        #expect(victim.withLock { $0?.isCancelled } == true)
        withExtendedLifetime(canceller) {}
    }

    @Test("an index decision taken before a handler was unregistered, committed after, does not list it again")
    func staleIntakeDoesNotKeepTheHandler() {
        // The race a post's intake can lose to a cancel on another thread
        // (decided with no lock held, committed after the cancel's trip),
        // laid out step by step on the storage's own values.
        var releases = Releases()
        var table = ListenerTable()
        let kept = ListenerEntry(holding: ClosureListener<Int>({ _ in }), isolation: nil)
        let entry = ListenerEntry(holding: ClosureListener<Int>({ _ in }), isolation: nil)
        #expect(table.add(kept, releasing: &releases))
        #expect(table.add(entry, releasing: &releases))
        var index = ProtocolIndex(for: EventKey<Int>.self)
        guard case .intake(let intake) = index.intake(from: table, at: 0, knowing: KnownNonconformances()) else {
            Issue.record("a new index takes its entries in")
            return
        }
        #expect(table.remove(EntryKey(objectID: entry.id, onlyProtocol: nil), releasing: &releases) === entry)
        index.noteRetired(entry, releasing: &releases)
        #expect(index.commit(intake, admitting: [kept, entry], in: table, releasing: &releases))
        #expect(
            index.members.map(ObjectIdentifier.init) == [ObjectIdentifier(kept)],
            "the index would hold the unregistered handler until its next filter")
    }
}

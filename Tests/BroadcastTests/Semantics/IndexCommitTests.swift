import Testing

@testable import Broadcast

/// A protocol whose index the commit tests drive.
private protocol Indexed: AnyObject {}

/// A listener of an actor, as the storage records it.
private final class IndexedSpy: Indexed, Sendable {}

/// What an index does with a decision made outside the lock when something
/// changed meanwhile: a nonconformance learned then must still reach the
/// members, by a rebuild.
@Suite("Index decisions committed after the lock")
struct IndexCommitTests {
    // fails on a core that drops what a refused commit learned: the entry
    // stays a member, and every broadcast schedules a call that does nothing.
    @Test func aRefusedCommitStillRebuildsWithWhatItLearned() {
        var storage = BroadcasterStorage()
        let spy = IndexedSpy()
        let entry = ListenerEntry(object: spy, isolation: MainActor.shared, onlyProtocol: nil)
        let added = storage.add(entry)
        #expect(added)
        guard case .intake(let earlier) = storage.members(of: (any Indexed).self as Any.Type),
            case .intake(let later) = storage.members(of: (any Indexed).self as Any.Type)
        else {
            Issue.record("a new index is taken in outside the lock")
            return
        }
        var releases = Releases()
        // A broadcast off the main actor could not tell, and listed it.
        storage.commit(later, admitting: [entry], learned: [], releasing: &releases)
        // One on the main actor proved it is not an `Indexed` there; its commit comes second.
        storage.commit(
            earlier, admitting: [], learned: [LearnedNonconformance(type: IndexedSpy.self, actor: MainActor.shared)],
            releasing: &releases)

        guard case .intake(let rebuild) = storage.members(of: (any Indexed).self as Any.Type) else {
            Issue.record("the index still lists the listener proved not to conform")
            return
        }
        #expect(rebuild.isRebuild)
        let members: [ListenerEntry] = storage.members(of: (any Indexed).self)
        #expect(members.isEmpty)
        withExtendedLifetime(spy) {}
    }

    // fails on a core whose registration settles a nonconformance without
    // rebuilding an index that already took the entry in.
    @Test func aSettledNonconformanceRebuildsAnIndexThatListedTheEntry() {
        var storage = BroadcasterStorage()
        let spy = IndexedSpy()
        let entry = ListenerEntry(object: spy, isolation: MainActor.shared, onlyProtocol: nil)
        let added = storage.add(entry)
        #expect(added)
        let listed: [ListenerEntry] = storage.members(of: (any Indexed).self)
        #expect(listed.map(ObjectIdentifier.init) == [ObjectIdentifier(entry)])

        storage.settle(
            entry,
            proving: [
                (
                    LearnedNonconformance(type: IndexedSpy.self, actor: MainActor.shared),
                    ObjectIdentifier((any Indexed).self)
                )
            ])

        let after: [ListenerEntry] = storage.members(of: (any Indexed).self)
        #expect(after.isEmpty)
        withExtendedLifetime(spy) {}
    }
}

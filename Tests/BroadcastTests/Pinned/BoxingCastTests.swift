import Broadcast
import Testing

/// A listener reached by broadcasting to `any Error`: on Linux the cast of a
/// class instance to `any Error` puts it in a new box, so the cast result's
/// first word is the box, not the listener.
final class ErrorShapedListener: Error, Sendable {
    let name: String

    init(_ name: String) { self.name = name }
}

/// A listener reached by broadcasting to `AnyHashable`, which wraps the
/// object in a struct.
final class HashableListener: Hashable, Sendable {
    let name: String

    init(_ name: String) { self.name = name }

    static func == (lhs: HashableListener, rhs: HashableListener) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Pinned: whatever shape the result of `listener as? P` has, each listener
/// receives its own value.
///
/// A delivery core that keeps cast results to skip
/// the cast must keep only those that hold nothing but the listener, and
/// must never rebuild a result from another listener's bits (checked
/// without the guard that the first word is the listener: every delivery to
/// `any Error` then receives a box that is not one, and the process
/// crashes).
@Suite("Pinned: casts whose result boxes the listener", .timeLimit(.minutes(1)))
struct BoxingCastTests {
    /// The names the `any Error` values delivered by one broadcast carry.
    static func namesDelivered(
        by broadcaster: Broadcaster, log: EventLog, round: Int, isolation: isolated (any Actor)? = #isolation
    ) -> Int {
        broadcaster.broadcast(to: (any Error).self) { error in
            log.record("\((error as? ErrorShapedListener)?.name ?? "not a listener"):\(round)")
        }
    }

    @Test func everyListenerBroadcastAsAnErrorReceivesItself() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let listeners = ["a", "b", "c"].map(ErrorShapedListener.init)
        for listener in listeners { broadcaster.addListener(listener) }

        // The first broadcast builds the index (a cast per listener); the
        // second uses whatever the index kept.
        let made = (1...2).map { Self.namesDelivered(by: broadcaster, log: log, round: $0) }

        #expect(made == [3, 3])
        #expect(log.all == ["a:1", "b:1", "c:1", "a:2", "b:2", "c:2"])
        withExtendedLifetime(listeners) {}
    }

    @Test func listenersOfOneClassIndexedOutsideATaskEachReceiveThemselves() async {
        // Outside a task a cast result is kept for the listener's class and
        // reused for the class's later listeners without a cast.
        let broadcaster = Broadcaster()
        let log = EventLog()
        let first = ErrorShapedListener("first")
        let later = ErrorShapedListener("later")
        let made = await onNewThread {
            broadcaster.addListener(first)
            let before = Self.namesDelivered(by: broadcaster, log: log, round: 1)
            broadcaster.addListener(later)
            return [before, Self.namesDelivered(by: broadcaster, log: log, round: 2)]
        }

        #expect(made == [1, 2])
        #expect(log.all == ["first:1", "first:2", "later:2"])
        withExtendedLifetime((first, later)) {}
    }

    @Test func everyListenerAwaitedAsAnErrorReceivesItself() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let listeners = ["a", "b"].map(ErrorShapedListener.init)
        for listener in listeners { broadcaster.addListener(listener) }

        var made: [Int] = []
        for round in 1...2 {
            made.append(
                await broadcaster.broadcast(awaitingEach: (any Error).self) { error in
                    log.record("\((error as? ErrorShapedListener)?.name ?? "not a listener"):\(round)")
                })
        }

        #expect(made == [2, 2])
        #expect(log.all == ["a:1", "b:1", "a:2", "b:2"])
        withExtendedLifetime(listeners) {}
    }

    @Test func everyListenerBroadcastAsAnyHashableReceivesItself() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let listeners = ["a", "b"].map(HashableListener.init)
        let made = await onNewThread {
            for listener in listeners { broadcaster.addListener(listener) }
            return (1...2).map { round in
                broadcaster.broadcast(to: AnyHashable.self) { value in
                    let listener = value.base as? HashableListener
                    log.record("\(listener?.name ?? "not a listener"):\(round)")
                }
            }
        }

        #expect(made == [2, 2])
        #expect(log.all == ["a:1", "b:1", "a:2", "b:2"])
        withExtendedLifetime(listeners) {}
    }
}

import Broadcast
import Foundation
import Testing

/// What a delivery on one actor learns about a listener class applies to that
/// actor's listeners only.
@Suite(.timeLimit(.minutes(1)))
struct ConformancePerActorTests {
    /// A `@MainActor` class whose conformance is isolated to the main actor:
    /// a `Ringing` on the main actor only.
    @MainActor final class Bell {
        let name: String
        let log: EventLog
        init(_ name: String, log: EventLog) {
            self.name = name
            self.log = log
        }
    }

    /// Registers bells from its own isolation, so they are listeners of this
    /// actor, where their conformance cannot be used.
    actor Tower {
        func hang(_ bell: Bell, on broadcaster: Broadcaster) {
            broadcaster.addListener(bell)
        }
    }

    @Test func aClassThatDoesNotConformOnOneActorStillConformsForItsListenersOfAnother() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let (onMain, onTower) = await MainActor.run {
            let onMain = Bell("main", log: log)
            broadcaster.addListener(onMain)  // a listener of the main actor
            return (onMain, Bell("tower", log: log))
        }
        await Tower().hang(onTower, on: broadcaster)

        // From a background thread: the main-actor bell is scheduled on the
        // main actor, the tower's bell on the tower, whose cast proves that
        // `Bell` is not a `Ringing` there.
        _ = await Self.onNewThread { broadcaster.broadcast(to: Ringing.self) { $0.ring() } }
        await broadcaster.waitForScheduledDeliveries()
        #expect(log.all == ["main"])

        // Learned for the tower only: the main-actor bell is still reached
        // from a background thread, and counted there.
        let counted = await Self.onNewThread { broadcaster.listenerCount(of: Ringing.self) }
        _ = await Self.onNewThread { broadcaster.broadcast(to: Ringing.self) { $0.ring() } }
        await broadcaster.waitForScheduledDeliveries()
        #expect(counted == 1)
        #expect(log.all == ["main", "main"])
        withExtendedLifetime((onMain, onTower)) {}
    }

    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}

nonisolated protocol Ringing: AnyObject {
    func ring()
}

extension ConformancePerActorTests.Bell: @MainActor Ringing {
    @MainActor func ring() {
        MainActor.assertIsolated()
        log.record(name)
    }
}

import Broadcast
import Testing

/// The awaited form with a payload: `broadcast(awaitingEach:with:order:)`,
/// and the async typed-method idiom built on it.
@Suite("Awaited broadcasts: with a payload", .timeLimit(.minutes(1)))
struct AwaitedPayloadTests {
    @Test func eachListenerReceivesThePayloadInRegistrationOrder() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = [AuditSpy(log: log), AuditSpy(log: log)]
        for spy in spies { broadcaster.addListener(spy) }

        let made = await broadcaster.broadcast(awaitingEach: AuditListener.self, with: "signed out") {
            await $0.audit($1)
        }

        #expect(made == 2)
        #expect(log.all == ["audit:signed out", "audit:signed out"])
    }

    @Test func concurrentOrderReachesEveryListener() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = (0..<10).map { _ in AuditSpy(log: log) }
        for spy in spies { broadcaster.addListener(spy) }

        let made = await broadcaster.broadcast(awaitingEach: AuditListener.self, with: 7, order: .concurrent) {
            await $0.audit("\($1)")
        }

        #expect(made == 10)
        #expect(log.all == Array(repeating: "audit:7", count: 10))
    }

    @Test func theFirstErrorStopsASequentialBroadcastAndIsThrownTyped() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let spies = [FlushSpy("a", log: log), FlushSpy("b", log: log, fails: true), FlushSpy("c", log: log)]
        for spy in spies { broadcaster.addListener(spy) }

        var thrown: FlushError?
        do throws(FlushError) {
            try await broadcaster.broadcast(awaitingEach: CacheFlushing.self, with: "reason") {
                listener, _ throws(FlushError) in
                try await listener.flush()
            }
        } catch {
            thrown = error
        }

        #expect(thrown == FlushError(name: "b"))
        #expect(log.all == ["a:flush", "b:flush"])
    }

    @MainActor @Test func anAsyncTypedMethodAwaitedOnTheMainActorReachesAMainActorConformance() async {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let screen = SignOutScreen(broadcaster: broadcaster, log: log)

        await broadcaster.signOutEverySession(reason: "expired")

        #expect(log.all == ["screen:main queue"])
        withExtendedLifetime(screen) {}
    }
}

extension Broadcaster {
    /// The async typed method as apps write it: it runs where its caller
    /// runs, so a main-actor caller's broadcast starts on the main actor.
    nonisolated(nonsending) func signOutEverySession(reason: String) async {
        await broadcast(awaitingEach: SessionListener.self, with: reason) { listener, _ in
            await listener.userSignedOut()
        }
    }
}

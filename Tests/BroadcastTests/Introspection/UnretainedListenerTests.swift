import Broadcast
import Testing

/// The debug-build report of a listener that nothing but the registration
/// kept alive, and its absence for every listener released on purpose.
@Suite("Unretained listener report", .timeLimit(.minutes(1)))
struct UnretainedListenerTests {
    /// Registers itself in its initializer, like most listeners.
    final class Downloader: Ping, Sendable {
        init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
        func ping(_ n: Int) {}
    }

    #if DEBUG
        @Test func aListenerOnlyTheRegistrationHeldIsReportedWithTypeAndPlace() {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            let line = #line + 1
            broadcaster.addListener(CountingPing())
            #expect(
                diagnostics.all == [
                    BroadcastDiagnostic(
                        kind: .listenerReleasedOnRegistration, typeName: "CountingPing",
                        fileID: "BroadcastTests/UnretainedListenerTests.swift", line: line)
                ])
            #expect(
                diagnostics.all.first?.description
                    == "Broadcast: CountingPing registered at BroadcastTests/UnretainedListenerTests.swift:\(line) "
                    + "was released as soon as it was registered: nothing else kept it alive, and a broadcaster "
                    + "holds listeners weakly, so it will never be called. Keep a strong reference to it, for "
                    + "example in a property of its owner.")
            #expect(broadcaster.registrationCount == 0)
        }

        @Test func aFactoryResultNobodyKeepsIsReported() {
            let diagnostics = DiagnosticLog()
            let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
            func makeListener() -> AnyObject { PostRecorder() }
            broadcaster.addListenerAsInSwift5(makeListener(), receivingSticky: true)
            #expect(diagnostics.all.map(\.typeName) == ["PostRecorder"])
        }
    #endif

    @Test func listenersSomethingElseHoldsAreNeverReported() async {
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        let kept = CountingPing()
        broadcaster.addListener(kept)  // a local keeps it
        let downloader = Downloader(broadcaster: broadcaster)  // registers itself, kept by the caller
        var releasedLater: CountingPing? = CountingPing()
        broadcaster.addListener(releasedLater!)
        releasedLater = nil  // released on purpose, after registering
        broadcaster.addListener(kept)  // already registered
        let screen = await Screen(broadcaster: broadcaster)  // a main-actor listener
        broadcaster.addListenerAsInSwift5(42 as AnyObject)  // refused, not registered
        #expect(diagnostics.all.isEmpty)
        #expect(broadcaster.registrationCount == 3)
        withExtendedLifetime((kept, downloader, screen)) {}
    }

    @Test func anObjectThatRegistersItselfAndIsDroppedIsNotReported() {
        // Documented limit: the initializer's `self` outlives the call, and
        // dies when the caller drops it, like any listener released on purpose.
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        _ = Downloader(broadcaster: broadcaster)
        #expect(diagnostics.all.isEmpty)
        #expect(broadcaster.registrationCount == 0)
    }
}

import Broadcast
import Testing

/// Diagnostics: `debugDescription` and `listenerCount(of:)`.
@Suite("Diagnostics", .timeLimit(.minutes(1)))
struct DiagnosticsTests {
    final class Ghost: Ping, Sendable { func ping(_ n: Int) {} }

    @Test func debugDescriptionListsLiveListenersTypesInOrder() async {
        let diagnostics = DiagnosticLog()
        let broadcaster = Broadcaster(onDiagnostic: diagnostics.record)
        #expect(broadcaster.debugDescription == "Broadcaster(0 listeners)")
        let recorder = PostRecorder()
        broadcaster.addListener(recorder)
        do { broadcaster.addListener(Ghost()) }  // released at once
        let counter = CountingPing()
        broadcaster.addListener(counter)
        let screen = await Screen(broadcaster: broadcaster)

        let description = broadcaster.debugDescription
        #expect(description == "Broadcaster(3 listeners: PostRecorder, CountingPing, Screen @MainActor)")
        #expect(!description.contains("Ghost"))
        #if DEBUG
            #expect(diagnostics.all.map(\.typeName) == ["Ghost"])  // the mistake, reported
        #endif
        withExtendedLifetime((recorder, counter, screen)) {}
    }

    @Test func listenerCountOfCountsConformingLiveListeners() {
        let broadcaster = Broadcaster()
        let recorder = PostRecorder()
        let pings = [CountingPing(), CountingPing()]
        var doomed: CountingPing? = CountingPing()
        broadcaster.addListener(recorder)
        for ping in pings { broadcaster.addListener(ping) }
        broadcaster.addListener(doomed!)
        #expect(broadcaster.listenerCount(of: Ping.self) == 3)
        doomed = nil
        #expect(broadcaster.listenerCount(of: Ping.self) == 2)
        #expect(broadcaster.listenerCount(of: PostCreationListener.self) == 1)
        #expect(broadcaster.registrationCount == 3)
        #expect(broadcaster.ping(1) == broadcaster.listenerCount(of: Ping.self))
        withExtendedLifetime((recorder, pings)) {}
    }
}

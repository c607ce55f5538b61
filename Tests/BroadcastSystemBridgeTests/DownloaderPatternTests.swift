// The app-state pattern from seed 003: a Downloader that cancels its request
// when the app enters the background, without knowing UIKit or
// NotificationCenter, tested three ways.
import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

/// The seed's downloader, with the network replaced by an injected function.
final class BackgroundCancellingDownloader: ApplicationStateListener, Sendable {
    typealias CancellationHandle = @Sendable () -> Void
    typealias Fetch = @Sendable (_ id: Int, _ completion: @escaping @Sendable (String?) -> Void) -> CancellationHandle

    private let fetch: Fetch
    private let handle = Mutex<CancellationHandle?>(nil)

    init(broadcaster: Broadcaster, fetch: @escaping Fetch) {
        self.fetch = fetch
        broadcaster.addListener(self)
    }

    func download(byId id: Int, completion: @escaping @Sendable (String?) -> Void) {
        let cancel = fetch(id, completion)
        handle.withLock { $0 = cancel }
    }

    func applicationDidEnterBackground() {
        let cancel = handle.withLock { handle in
            defer { handle = nil }
            return handle
        }
        cancel?()
    }
}

/// A fetch that never answers and counts cancellations.
final class SlowFetch: Sendable {
    let cancellations = Atomic<Int>(0)
    var fetch: BackgroundCancellingDownloader.Fetch {
        { _, _ in { self.cancellations.add(1, ordering: .relaxed) } }
    }
}

@Suite(.timeLimit(.minutes(1))) struct DownloaderPatternTests {
    /// No UIKit, no NotificationCenter: the test broadcasts the typed event.
    @Test func backgroundingCancelsTheCurrentRequest() async {
        let broadcaster = Broadcaster()
        let slow = SlowFetch()
        let downloader = BackgroundCancellingDownloader(broadcaster: broadcaster, fetch: slow.fetch)
        downloader.download(byId: 42) { _ in }

        broadcaster.broadcast(to: (any ApplicationStateListener).self) { $0.applicationDidEnterBackground() }
        #expect(slow.cancellations.load(ordering: .relaxed) == 1)
        broadcaster.broadcast(to: (any ApplicationStateListener).self) { $0.applicationDidEnterBackground() }
        #expect(slow.cancellations.load(ordering: .relaxed) == 1)  // nothing left to cancel
    }

    /// The same with the event value, as a fake notifier would send it.
    @Test func otherEventsDoNotCancel() {
        let slow = SlowFetch()
        let downloader = BackgroundCancellingDownloader(broadcaster: Broadcaster(), fetch: slow.fetch)
        downloader.download(byId: 1) { _ in }
        for event in ApplicationEvent.allCases where event != .didEnterBackground { event.send(to: downloader) }
        #expect(slow.cancellations.load(ordering: .relaxed) == 0)
        ApplicationEvent.didEnterBackground.send(to: downloader)
        #expect(slow.cancellations.load(ordering: .relaxed) == 1)
    }

    /// End to end through a bridge and the simulator, still without UIKit.
    @Test func simulatedBackgroundThroughABridgeCancels() async {
        let rig = Rig()
        let slow = SlowFetch()
        let downloader = BackgroundCancellingDownloader(broadcaster: rig.broadcaster, fetch: slow.fetch)
        downloader.download(byId: 7) { _ in }
        rig.simulator.enterBackground()
        await rig.broadcaster.waitForScheduledDeliveries()
        #expect(slow.cancellations.load(ordering: .relaxed) == 1)
    }
}

// The bridge's usage snippets from the "Keyboard and App State" article, as written (only the body of
// `cancelCurrentRequest()` and the bridge's surroundings are added), so that
// they keep compiling in Swift 6 mode.
import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

final class Downloader: ApplicationStateListener, Sendable {  // not UI: no actor of its own
    init(broadcaster: Broadcaster) { broadcaster.addListener(self) }
    func applicationDidEnterBackground() { cancelCurrentRequest() }
}

@MainActor final class ComposeViewController: KeyboardListener {
    func keyboardWillShow(_ change: KeyboardChange) {
        // change.endFrame, change.animationDuration
    }
}

@MainActor final class FeedViewController {}
extension FeedViewController: @MainActor ApplicationStateListener {
    func applicationDidBecomeActive() {
        // refresh
    }
}

/// How many times each snippet `Downloader` cancelled.
let snippetCancellations = Mutex<[ObjectIdentifier: Int]>([:])

extension Downloader {
    func cancelCurrentRequest() {
        snippetCancellations.withLock { $0[ObjectIdentifier(self), default: 0] += 1 }
    }

    var cancellations: Int { snippetCancellations.withLock { $0[ObjectIdentifier(self), default: 0] } }
}

@Suite(.timeLimit(.minutes(1))) struct BridgeUsageSnippetTests {
    /// The documented user code works: a `Downloader` built off the main
    /// actor cancels when the bridge sees the app enter the background; the
    /// screens register from the main actor and are counted as listeners.
    @Test func snippetsCompileAndDownloaderCancelsOnBackground() async {
        let broadcaster = Broadcaster()
        let center = NotificationCenter()
        let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: center)
        let downloader = Downloader(broadcaster: broadcaster)  // non-isolated test code
        let (compose, feed) = await MainActor.run {
            let compose = ComposeViewController()
            let feed = FeedViewController()
            broadcaster.addListener(compose)
            broadcaster.addListener(feed)
            return (compose, feed)
        }
        #expect(broadcaster.registrationCount == 3)

        SystemNotificationSimulator(center: center).applicationDidEnterBackground()
        await broadcaster.waitForScheduledDeliveries()

        #expect(downloader.cancellations == 1)
        #expect(bridge.applicationState == .background)
        withExtendedLifetime((compose, feed, bridge)) {}
    }
}

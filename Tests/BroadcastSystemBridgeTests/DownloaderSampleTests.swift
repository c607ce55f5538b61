import Broadcast
import BroadcastSystemBridge
import Foundation
import Synchronization
import Testing

/// How many requests the samples' downloaders cancelled.
let sampleCancellations = Atomic<Int>(0)

/// The network call the article "Keyboard and App State" leaves to the app.
func startRequest(_ id: Int) -> @Sendable () -> Void {
    { sampleCancellations.add(1, ordering: .relaxed) }
}

/// The network call the article "Migrating to Broadcast" leaves to the app.
func httpGet(_ url: URL, completion: @escaping (Data?) -> Void) -> @Sendable () -> Void {
    startRequest(0)
}

/// The downloader of "Keyboard and App State", nested so that its name does
/// not meet the landing page's `Downloader` (UsageSnippetTests.swift).
enum KeyboardArticle {
    // Verbatim from Sources/BroadcastSystemBridge/BroadcastSystemBridge.docc/KeyboardAndAppState.md,
    // after its import and indented (DocumentationSampleTests checks it), down to "End of the sample".
    nonisolated final class Downloader: ApplicationStateListener, @unchecked Sendable {
        // @unchecked Sendable: `cancelRequest` is only read or written while `lock` is held.
        private let lock = NSLock()
        private var cancelRequest: (@Sendable () -> Void)?

        var isDownloading: Bool { lock.withLock { cancelRequest != nil } }

        init(broadcaster: Broadcaster = .shared) {
            broadcaster.addListener(self)
        }

        func download(byId id: Int) {
            let cancel = startRequest(id)
            lock.withLock { cancelRequest = cancel }
        }

        func cancelCurrentRequest() {
            lock.withLock { cancelRequest.take() }?()  // cancels after unlocking
        }

        func applicationDidEnterBackground() { cancelCurrentRequest() }
    }
    // End of the sample.
}

/// The downloader of "Migrating to Broadcast", nested likewise.
enum MigrationArticle {
    // Verbatim from Sources/BroadcastSystemBridge/BroadcastSystemBridge.docc/MigratingNotifications.md,
    // its class only, indented (DocumentationSampleTests checks it), down to "End of the sample".
    nonisolated final class Downloader: ApplicationStateListener, @unchecked Sendable {
        // @unchecked Sendable: `handle` is only read or written while `lock` is held,
        // so any thread may call it.
        typealias CancellationHandle = @Sendable () -> Void
        private let lock = NSLock()
        private var handle: CancellationHandle?

        var isDownloading: Bool { lock.withLock { handle != nil } }

        init(broadcaster: Broadcaster = .shared) {
            broadcaster.addListener(self)  // weak: no cycle, nothing in deinit
        }

        func download(byId id: Int, completion: @escaping @Sendable (String?) -> Void) {
            let cancel = httpGet(URL(string: "http://example.com/\(id)")!) { data in
                completion(data.flatMap { String(data: $0, encoding: .utf8) })
            }
            lock.withLock { handle = cancel }
        }

        // Only the events it needs: the others have empty default implementations.
        func applicationDidEnterBackground() {
            lock.withLock { handle.take() }?()  // cancels after unlocking
        }
    }
    // End of the sample.
}

/// The articles' thread-safe downloaders, downloading and backgrounded from
/// four tasks at once while another reads them.
///
/// `scripts/sanitizers thread` runs this suite, so a report from a sample
/// fails CI.
@Suite("The articles' downloaders under concurrent calls", .timeLimit(.minutes(1)), .serialized)
struct DownloaderSampleTests {
    static let rounds = 500

    /// Downloads and backgrounds from four tasks while a fifth reads; then
    /// backgrounds once more: every request started is cancelled or
    /// replaced, and none is left running.
    static func exercise(
        download: @escaping @Sendable (Int) -> Void, isDownloading: @escaping @Sendable () -> Bool,
        broadcaster: Broadcaster
    ) async -> Bool {
        let background = { @Sendable in
            _ = broadcaster.broadcast(to: (any ApplicationStateListener).self) { $0.applicationDidEnterBackground() }
        }
        await withTaskGroup { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<rounds {
                        download(task * rounds + round)
                        background()
                    }
                }
            }
            group.addTask {
                for _ in 0..<rounds { _ = isDownloading() }
            }
        }
        background()
        return isDownloading()
    }

    @Test func keyboardArticlesDownloader() async {
        let broadcaster = Broadcaster()
        let downloader = KeyboardArticle.Downloader(broadcaster: broadcaster)
        let cancelledBefore = sampleCancellations.load(ordering: .relaxed)

        let downloading = await Self.exercise(
            download: { downloader.download(byId: $0) }, isDownloading: { downloader.isDownloading },
            broadcaster: broadcaster)

        #expect(!downloading)
        #expect(sampleCancellations.load(ordering: .relaxed) > cancelledBefore)
    }

    @Test func migrationArticlesDownloader() async {
        let broadcaster = Broadcaster()
        let downloader = MigrationArticle.Downloader(broadcaster: broadcaster)
        let cancelledBefore = sampleCancellations.load(ordering: .relaxed)

        let downloading = await Self.exercise(
            download: { downloader.download(byId: $0) { _ in } }, isDownloading: { downloader.isDownloading },
            broadcaster: broadcaster)

        #expect(!downloading)
        #expect(sampleCancellations.load(ordering: .relaxed) > cancelledBefore)
    }
}

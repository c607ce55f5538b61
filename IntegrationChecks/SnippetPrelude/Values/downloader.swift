// The downloader of the application-state pattern (a model object that any thread may create and call), and the app's instance.
// Sendable: its state is in a Mutex, so any thread may call it.
import Broadcast
import BroadcastSystemBridge
import Synchronization

nonisolated final class Downloader: ApplicationStateListener, Sendable {
    private let cancelRequest = Mutex<(@Sendable () -> Void)?>(nil)
    var isDownloading: Bool { cancelRequest.withLock { $0 != nil } }

    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }

    func download(byId id: Int) {
        let cancel = startRequest(id)
        cancelRequest.withLock { $0 = cancel }
    }
    func download(byId id: Int, completion: @escaping @Sendable (String?) -> Void) {
        let cancel = startRequest(id)
        cancelRequest.withLock { $0 = cancel }
    }

    func cancelCurrentRequest() { cancelRequest.withLock { $0.take() }?() }

    func applicationDidEnterBackground() { cancelCurrentRequest() }
}

@MainActor let downloader = Downloader(broadcaster: broadcaster)

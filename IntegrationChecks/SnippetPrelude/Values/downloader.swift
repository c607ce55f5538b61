// The downloader of the application-state pattern (a model object that any thread may create and call), and the app's instance.
import Broadcast
import BroadcastSystemBridge
import Foundation

nonisolated final class Downloader: ApplicationStateListener, @unchecked Sendable {
    // @unchecked Sendable: `cancelRequest` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var cancelRequest: (@Sendable () -> Void)?
    var isDownloading: Bool { lock.withLock { cancelRequest != nil } }

    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }

    func download(byId id: Int) {
        let cancel = startRequest(id)
        lock.withLock { cancelRequest = cancel }
    }
    func download(byId id: Int, completion: @escaping @Sendable (String?) -> Void) {
        let cancel = startRequest(id)
        lock.withLock { cancelRequest = cancel }
    }

    func cancelCurrentRequest() { lock.withLock { cancelRequest.take() }?() }

    func applicationDidEnterBackground() { cancelCurrentRequest() }
}

@MainActor let downloader = Downloader(broadcaster: broadcaster)

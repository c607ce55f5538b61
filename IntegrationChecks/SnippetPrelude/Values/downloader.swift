// The downloader of the application-state pattern (a model object that any thread may create and call), and the app's instance.
import Broadcast
import BroadcastSystemBridge

nonisolated final class Downloader: ApplicationStateListener {
    private var cancelRequest: (() -> Void)?
    var isDownloading: Bool { cancelRequest != nil }

    init(broadcaster: Broadcaster = .shared) { broadcaster.addListener(self) }

    func download(byId id: Int) { cancelRequest = startRequest(id) }
    func download(byId id: Int, completion: @escaping (String?) -> Void) { cancelRequest = startRequest(id) }

    func cancelCurrentRequest() {
        cancelRequest?()
        cancelRequest = nil
    }

    func applicationDidEnterBackground() { cancelCurrentRequest() }
}

@MainActor let downloader = Downloader(broadcaster: broadcaster)

import BenchmarkKit
import Broadcast

/// The client module's broadcast, driven by the runner: `FeedController`s
/// registered from main-actor code, broadcast on the main actor through the
/// module's typed method.
///
/// Non-isolated so that the runner can hold it as a `UserShape`;
/// `@unchecked Sendable`: everything but the name is only touched on the main
/// actor (`assumeIsolated` checks it).
nonisolated public final class MainActorClientShape: UserShape, @unchecked Sendable {
    public let name: String
    private let form: BroadcastForm
    public var allocatesNothing: Bool { form == .with }
    private let broadcaster = Broadcaster()
    private nonisolated(unsafe) var listeners: [FeedController] = []
    private let post = Post(title: "Hello", id: 1)

    @MainActor public init(listenerCount: Int, form: BroadcastForm) {
        self.form = form
        name = "Broadcaster, default-MainActor module, \(form.rawValue)"
        listeners = (0..<listenerCount).map { _ in FeedController(broadcaster: broadcaster) }
    }

    public func broadcast(times: Int) {
        MainActor.assumeIsolated {
            switch form {
            case .closure: for _ in 0..<times { broadcaster.postCreatedCapturing(post) }
            case .with: for _ in 0..<times { broadcaster.postCreated(post) }
            }
        }
    }

    public var delivered: Int {
        MainActor.assumeIsolated { listeners.reduce(0) { $0 &+ $1.received } }
    }
}

import Broadcast

/// The state steps' events: a session kept as sticky state, and a link
/// consumed once.
struct HostSession: Sendable { let user: String }
struct HostLink: Sendable { let path: String }

/// State that apps read, in a real process: an `ObservableStickyEvent`
/// following a session posted from the main context and then from a
/// background thread, and two handlers that consume a link posted from a
/// background thread, of which only the first to run takes it.
final class HostState: Sendable {
    let broadcaster = Broadcaster()
    /// The observed session, made on the main actor.
    let session: ObservableStickyEvent<HostSession>
    let consumed = DeliveryLog()
    let tokens: [BroadcastToken]

    /// Made from the host's main context, which runs on the main actor.
    init() {
        let broadcaster = broadcaster
        let consumed = consumed
        (session, tokens) = MainActor.assumeIsolated {
            let session = ObservableStickyEvent(for: HostSession.self, on: broadcaster)
            let tokens = (0..<2).map { _ in
                broadcaster.addHandler(
                    for: HostLink.self, calledOn: MainActor.shared, receivingSticky: true, consumingSticky: true
                ) { _ in consumed.record(nil) }
            }
            return (session, tokens)
        }
    }

    /// Posts the session from here, then the session and the link from a
    /// background thread.
    func post() {
        broadcaster.post(HostSession(user: "main context"), sticky: true)
        let broadcaster = broadcaster
        HostProbe.onBackgroundThread {
            broadcaster.post(HostSession(user: "background"), sticky: true)
            broadcaster.post(HostLink(path: "/once"), sticky: true)
        }
    }

    /// Whether the observed value shows the last session and the link was
    /// taken; read on the main actor.
    var arrived: Bool {
        MainActor.assumeIsolated { session.value?.user == "background" } && consumed.calls >= 1
    }
}

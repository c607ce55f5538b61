// Swift6: error: 'addListener(_:receivingStickyBroadcasts:isolation:fileID:line:)' has been renamed to 'addListener(_:receivingSticky:isolation:fileID:line:)'
// Swift6: error: 'listenerCount' has been renamed to 'registrationCount'
// Swift6: error: 'broadcastAndWait(to:isolation:_:)' is unavailable: broadcast(to:), then await waitForScheduledDeliveries()
// Swift6: error: 'broadcastOnMainActorAndWait(to:isolation:_:)' is unavailable: broadcastOnMainActor(to:), then await waitForScheduledDeliveries()
// Swift6: error: 'postAndWait(_:isolation:)' is unavailable: post(_:), then await waitForScheduledDeliveries()
// Swift6: error: 'addHandler(for:receivingStickyEvent:handler:)' has been renamed to 'addHandler(for:receivingSticky:handler:)'
// Swift6: error: 'addHandler(for:owner:receivingStickyEvent:handler:)' has been renamed to 'addHandler(for:owner:receivingSticky:handler:)'
// Swift6: error: 'events(of:bufferingPolicy:receivingStickyEvent:)' has been renamed to 'events(of:bufferingPolicy:receivingSticky:)'
// Swift6: error: 'setStickyBroadcast(to:_:)' has been renamed to 'setStickyBroadcast(for:_:)'
// Swift6: error: 'setStickyBroadcastOnMainActor(to:_:)' has been renamed to 'setStickyBroadcastOnMainActor(for:_:)'
// Swift6: error: 'clearStickyEvent(of:)' has been renamed to 'clearStickyEvent(for:)'
// Swift6: error: 'init(_:)' has been renamed to 'custom(_:)'
// Swift6: error: 'init(_:for:lifespan:on:receivingStickyBroadcasts:)' has been renamed to 'init(_:for:lifespan:on:receivingSticky:)'
// Swift6: error: 'add(_:for:lifespan:receivingStickyBroadcasts:isolation:)' has been renamed to 'add(_:for:lifespan:receivingSticky:isolation:)'
// Swift5: error: 'addListener(_:receivingStickyBroadcasts:isolation:fileID:line:)' has been renamed to 'addListener(_:receivingSticky:isolation:fileID:line:)'
// Swift5: error: 'addHandler(for:receivingStickyEvent:handler:)' has been renamed to 'addHandler(for:receivingSticky:handler:)'
// Swift5: error: 'init(_:)' has been renamed to 'custom(_:)'
//
// The 0.1.0 spellings, which 1.0 deprecated: 2.0 refuses each and names its
// replacement (a fix-it where only labels changed).
import Broadcast

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }
struct UserSignedIn: Sendable { let name: String }

@MainActor final class Screen: @MainActor PostCreationListener {
    var tokens: [BroadcastToken] = []
    func postCreated(_ title: String) {}

    func start(with broadcaster: Broadcaster) async {
        broadcaster.addListener(self, receivingStickyBroadcasts: true)
        _ = broadcaster.listenerCount
        await broadcaster.broadcastAndWait(to: PostCreationListener.self) { $0.postCreated("a") }
        await broadcaster.broadcastOnMainActorAndWait(to: PostCreationListener.self) { $0.postCreated("a") }
        await broadcaster.postAndWait(UserSignedIn(name: "Ada"))
        tokens.append(broadcaster.addHandler(for: UserSignedIn.self, receivingStickyEvent: true) { _ in })
        tokens.append(broadcaster.addHandler(for: UserSignedIn.self, owner: self, receivingStickyEvent: true) { _, _ in })
        _ = broadcaster.events(of: UserSignedIn.self, receivingStickyEvent: true)
        broadcaster.setStickyBroadcast(to: PostCreationListener.self) { $0.postCreated("a") }
        broadcaster.setStickyBroadcastOnMainActor(to: PostCreationListener.self) { $0.postCreated("a") }
        broadcaster.clearStickyEvent(of: UserSignedIn.self)
        _ = Lifespan("editing")
        _ = ListenerRegistration(self, for: PostCreationListener.self, on: broadcaster, receivingStickyBroadcasts: true)
        ListenerRegistrations(broadcaster: broadcaster).add(
            self, for: PostCreationListener.self, lifespan: .visible, receivingStickyBroadcasts: true)
    }
}

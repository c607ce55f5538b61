// Swift6: error: 'addListener(_:receivingCurrentState:isolation:)' is unavailable: use bridge.broadcaster.addListener(_:receivingSticky:)
// Swift5: error: 'addListener(_:receivingCurrentState:isolation:)' is unavailable: use bridge.broadcaster.addListener(_:receivingSticky:)
//
// The 0.1.0 way of registering through the bridge, which 1.0 deprecated.
import BroadcastSystemBridge

@MainActor final class Screen: ApplicationStateListener {}

@MainActor func register(_ screen: Screen, with bridge: SystemNotificationBridge) {
    bridge.addListener(screen, receivingCurrentState: true)
}

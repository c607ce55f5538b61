// The app's system notification bridge, kept alive.
import Broadcast
import BroadcastSystemBridge
import Foundation

nonisolated let bridge = SystemNotificationBridge(broadcaster: broadcaster, notificationCenter: .default)

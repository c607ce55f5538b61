// A main-actor screen that follows the application state and the keyboard.
import BroadcastSystemBridge

nonisolated let screen = SettingsScreen()

@MainActor
final class SettingsScreen: KeyboardListener {
    nonisolated init() {}
}

extension SettingsScreen: @MainActor ApplicationStateListener {}

// Whatever an app does with a connectivity change.
nonisolated func update(_ change: Connectivity) {}

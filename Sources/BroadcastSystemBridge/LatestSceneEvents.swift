/// The latest event of each connected scene, in the order the scenes
/// connected (or were first seen): the bridge's memory of its scenes.
///
/// Each scene's state is its latest event's ``SceneEvent/resultingState``,
/// and a listener registering late is told each scene's state as that very
/// event, so an inactive scene is replayed as "will enter foreground" or
/// "will deactivate", whichever it really got.
struct LatestSceneEvents: Sendable {
    private(set) var entries: [(scene: SceneIdentity, event: SceneEvent)] = []

    /// Records `event` for `scene`.
    ///
    /// Did disconnect removes the scene; any other event replaces its latest
    /// one, or adds it, last, if it was not connected (a bridge created after
    /// the scene connected learns of it from its next event).
    mutating func record(_ event: SceneEvent, for scene: SceneIdentity) {
        let index = entries.firstIndex { $0.scene == scene }
        switch (event, index) {
        case (.didDisconnect, let index?): entries.remove(at: index)
        case (.didDisconnect, nil): break
        case (_, let index?): entries[index].event = event
        case (_, nil): entries.append((scene, event))
        }
    }

    /// The connected scenes' states.
    var connectedScenes: ConnectedScenes {
        var states: [SceneIdentity: SceneState] = [:]
        for (scene, event) in entries { states[scene] = event.resultingState }
        return ConnectedScenes(states)
    }
}

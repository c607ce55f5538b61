// Swift6: compiles
// AppDefaults: compiles
//
// Top-level code runs on the main actor in the Swift 6 language mode, so it
// registers a listener called there. (In the Swift 5 language mode top-level
// code is isolated to no actor; such a client registers with the Swift 5
// form, as before.)
import Broadcast

nonisolated protocol PostCreationListener: AnyObject { func postCreated(_ title: String) }

nonisolated final class Counter: PostCreationListener {
    var count = 0
    func postCreated(_ title: String) { count += 1 }
}

let broadcaster = Broadcaster()
let counter = Counter()
broadcaster.addListener(counter, calledOn: MainActor.shared)

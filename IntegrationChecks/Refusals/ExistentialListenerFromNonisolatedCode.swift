// Swift6: error: 'nil' is not compatible with expected argument type 'any Actor'
// Swift6: shows: Make the listener @MainActor,
// Swift5: compiles
//
// An `AnyObject` says nothing about Sendable: from code isolated to no actor
// it is refused like any listener that is not Sendable.
import Broadcast

nonisolated func register(_ listener: AnyObject, with broadcaster: Broadcaster) {
    broadcaster.addListener(listener, receivingSticky: true)
}

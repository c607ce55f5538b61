// Swift6: error: type 'AnyObject' does not conform to the 'Sendable' protocol
// Swift5: compiles
//
// An `AnyObject` says nothing about Sendable: it is refused like any listener
// that is not Sendable.
import Broadcast

nonisolated func register(_ listener: AnyObject, with broadcaster: Broadcaster) /*CONTEXT*/ {
    broadcaster.addListener(listener)
}

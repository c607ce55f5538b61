import BenchmarkKit
import BenchmarkMainActorClient
import Foundation

/// The shapes apps write (see BroadcastComparison's user-shape table), by a
/// short name for the command line.
@MainActor
let userShapeFactories: [(key: String, make: @MainActor (Int) -> any UserShape)] = [
    ("floor-value", { WeakTypedValueShape(listenerCount: $0) }),
    ("floor-cast", { WeakCastValueShape(listenerCount: $0) }),
    ("floor-generic-cast", { WeakGenericCastValueShape(listenerCount: $0) }),
    ("value-closure", { ValueShape(listenerCount: $0, form: .closure) }),
    ("value-with", { ValueShape(listenerCount: $0, form: .with) }),
    ("two-closure", { TwoValuesShape(listenerCount: $0, form: .closure) }),
    ("two-with", { TwoValuesShape(listenerCount: $0, form: .with) }),
    ("main-actor-closure", { MainActorValueShape(listenerCount: $0, form: .closure) }),
    ("main-actor-with", { MainActorValueShape(listenerCount: $0, form: .with) }),
    ("client-closure", { MainActorClientShape(listenerCount: $0, form: .closure) }),
    ("client-with", { MainActorClientShape(listenerCount: $0, form: .with) }),
    // The event API (EventShapes.swift).
    ("post-plain", { PostHandlerShape(listenerCount: $0, form: .plain) }),
    ("post-owner", { PostHandlerShape(listenerCount: $0, form: .owner) }),
    ("post-called-on", { PostHandlerShape(listenerCount: $0, form: .calledOn) }),
    ("post-receiving-sticky", { PostHandlerShape(listenerCount: $0, form: .receivingSticky) }),
    ("post-consuming-sticky", { PostHandlerShape(listenerCount: $0, form: .consumingSticky) }),
    ("post-event-listener", { PostEventListenerShape(listenerCount: $0) }),
    ("main-actor-message", { MainActorMessageValueShape(listenerCount: $0) }),
]

/// `shape SHAPE deliver N TIMES`: registers N listeners of the shape, then
/// broadcasts TIMES times inside `profiled`.
@MainActor
func profileUserShape(_ arguments: [String]) {
    guard arguments.count >= 3, arguments[1] == "deliver",
        let factory = userShapeFactories.first(where: { $0.key == arguments[0] }),
        let n = Int(arguments[2])
    else {
        print("usage: BroadcastProfile shape SHAPE deliver N TIMES")
        print("shapes: \(userShapeFactories.map(\.key).joined(separator: ", "))")
        exit(2)
    }
    let times = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000
    let shape = factory.make(n)
    shape.broadcast(times: 10)
    profiled { shape.broadcast(times: times) }
    blackHole(shape)
}

import BenchmarkKit
import Foundation

/// The awaited implementations, by a short name for the command line.
let awaitedImplementationKeys: [(key: String, type: any AwaitedImplementation.Type)] = [
    ("loop", WeakBoxAwaitLoop.self),
    ("nonsending-loop", WeakBoxNonsendingLoop.self),
    ("broadcaster", BroadcasterAwaited.self),
]

/// `awaited IMPLEMENTATION (nonisolated | main-actor) N TIMES`: registers N
/// listeners (with no actor from code with no actor, or main-actor listeners
/// from main-actor code), signs out 10 times to warm up, then TIMES times,
/// from a task with no actor, and exits.
///
/// The count includes the runtime's scheduling, so read the difference of
/// two runs with different TIMES, divided by the difference of TIMES × N:
/// instructions per awaited delivery.
func profileAwaited(_ arguments: [String]) -> Never {
    guard arguments.count >= 3,
        let type = awaitedImplementationKeys.first(where: { $0.key == arguments[0] })?.type,
        ["nonisolated", "main-actor"].contains(arguments[1]),
        let n = Int(arguments[2])
    else {
        print("usage: BroadcastProfile awaited IMPLEMENTATION (nonisolated | main-actor) N TIMES")
        print("implementations: \(awaitedImplementationKeys.map(\.key).joined(separator: ", "))")
        exit(2)
    }
    let onMainActor = arguments[1] == "main-actor"
    let times = arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100
    Task { @MainActor in
        let implementation = type.init()
        var keep: [AnyObject] = []
        if onMainActor {
            let listeners = (0..<n).map { _ in MainActorSessionCounter() }
            for listener in listeners { implementation.addOnMainActor(listener) }
            keep = listeners
        } else {
            let listeners = (0..<n).map { _ in SessionCounter() }
            await Task.detached { for listener in listeners { implementation.add(listener) } }.value
            keep = listeners
        }
        await Task.detached {
            await implementation.signOut(times: 10)
            await implementation.signOut(times: times)
        }.value
        // A delivery that kept a reference would keep its listener alive.
        weak let last = keep.last
        keep = []
        if last != nil {
            print("error: a listener outlived its last reference")
            exit(1)
        }
        exit(0)
    }
    dispatchMain()
}

import BenchmarkKit
import BenchmarkMainActorClient
import Foundation

// A fixed workload for instruction-level profiling, e.g.
//
//   valgrind --tool=callgrind Benchmarks/.build/release/BroadcastProfile Broadcaster deliver 1000 2000
//
// Usage: BroadcastProfile IMPLEMENTATION (deliver N TIMES | add N | remove N)
//        BroadcastProfile shape SHAPE deliver N TIMES
//        BroadcastProfile awaited IMPLEMENTATION (nonisolated | main-actor) N TIMES
// `deliver` registers N listeners and broadcasts TIMES times; `add` adds N
// listeners (after one broadcast, so indexes are maintained); `remove` adds
// N and removes them in a fixed shuffled order. Callgrind counts
// instructions, which repeat exactly from run to run.

@inline(never)
func profiled(_ body: () -> Void) { body() }

let arguments = CommandLine.arguments
if arguments.count >= 5, arguments[1] == "awaited" {
    profileAwaited(Array(arguments.dropFirst(2)))
}
if arguments.count >= 4, arguments[1] == "shape" {
    profileUserShape(Array(arguments.dropFirst(2)))
    exit(0)
}
guard arguments.count >= 4,
    let type = allImplementations.first(where: { $0.name == arguments[1] }),
    let n = Int(arguments[3])
else {
    print("usage: BroadcastProfile IMPLEMENTATION (deliver N TIMES | add N | remove N)")
    print("implementations: \(allImplementations.map { $0.name }.joined(separator: ", "))")
    exit(2)
}

let implementation = type.init()
let listeners = (0..<n).map { _ in Listener() }
let post = Post(id: 1)
switch arguments[2] {
case "deliver":
    let times = arguments.count > 4 ? Int(arguments[4]) ?? 1000 : 1000
    listeners.forEach(implementation.add)
    implementation.broadcast(post, times: 10)
    profiled { implementation.broadcast(post, times: times) }
case "add":
    implementation.broadcast(post, times: 1)
    profiled { listeners.forEach(implementation.add) }
case "remove":
    implementation.broadcast(post, times: 1)
    listeners.forEach(implementation.add)
    var generator = SystemRandomNumberGenerator()
    let order = listeners.shuffled(using: &generator)
    profiled { order.forEach(implementation.remove) }
default:
    print("unknown operation \(arguments[2])")
    exit(2)
}
blackHole(listeners)

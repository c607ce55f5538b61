import Dispatch

// What one weak load costs on the machine a run measures on: the loop of
// every weak design's delivery (load the object through its weak reference,
// use it, release what was loaded), beside the same loop over strong
// references, so that a page comparing Broadcast with peers that hold their
// closures strongly can say how much of a delivery the weak load is.
//
// The boxes are read in place: copying a struct that holds a weak reference
// calls `swift_weakCopyInit` and `swift_weakDestroy`, which would double the
// figure.

final class LoadedObject {
    var value = 1
}

final class WeakBox {
    weak var object: LoadedObject?
    init(_ object: LoadedObject) { self.object = object }
}

final class StrongBox {
    let object: LoadedObject
    init(_ object: LoadedObject) { self.object = object }
}

@inline(never)
func loadWeakly(_ boxes: [WeakBox], _ iterations: Int) -> Int {
    var sum = 0
    for index in 0..<iterations { if let object = boxes[index & 1023].object { sum &+= object.value } }
    return sum
}

@inline(never)
func loadStrongly(_ boxes: [StrongBox], _ iterations: Int) -> Int {
    var sum = 0
    for index in 0..<iterations { sum &+= boxes[index & 1023].object.value }
    return sum
}

/// Nanoseconds per load over 1,024 objects, weak (with the release of what
/// it loaded) and strong: the fastest of `rounds` timings of `iterations`
/// loads each, since on a shared machine a round the scheduler interrupts
/// only ever takes longer.
public func weakAndStrongLoadCost(iterations: Int, rounds: Int) -> (weak: Double, strong: Double) {
    let objects = (0..<1024).map { _ in LoadedObject() }
    let weakBoxes = objects.map(WeakBox.init)
    let strongBoxes = objects.map(StrongBox.init)
    func time(_ body: () -> Int) -> Double {
        var samples: [Double] = []
        var sink = 0
        for _ in 0..<max(rounds, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            sink &+= body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        precondition(sink != 0)
        return samples.min() ?? 0
    }
    let weak = time { loadWeakly(weakBoxes, iterations) }
    let strong = time { loadStrongly(strongBoxes, iterations) }
    withExtendedLifetime(objects) {}
    return (weak, strong)
}

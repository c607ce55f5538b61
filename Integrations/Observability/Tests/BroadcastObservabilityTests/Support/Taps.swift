import Broadcast

// The README's way to give a broadcaster several taps, as written there.

/// A tap that hands each observation to several taps, in order.
struct Taps: BroadcastTap {
    let taps: [any BroadcastTap]

    init(_ taps: any BroadcastTap...) {
        self.taps = taps
    }

    func observe(_ observation: BroadcastObservation) {
        for tap in taps { tap.observe(observation) }
    }
}

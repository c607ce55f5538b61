import BenchmarkKit
import Broadcast
import Foundation

// A background broadcast to main-actor screens whose conformance is isolated
// to the main actor (`extension Screen: @MainActor PostListener`), registered
// two ways: from code isolated to no actor, settled by the main actor once
// (its later calls go there, as for a screen registered from main-actor
// code), and with `calledOn: MainActor.shared`. Each run broadcasts from a
// detached task and returns once the calls have run on the main actor.

@MainActor final class IsolatedPostScreen {
    var received = 0
}

extension IsolatedPostScreen: @MainActor PostListener {
    func postCreated(_ post: Post) { received &+= post.id }
}

/// How the screens register.
enum IsolatedScreenRegistration: CaseIterable {
    case withNoActor
    case calledOnMainActor

    var name: String {
        switch self {
        case .withNoActor: "Broadcaster, isolated conformance, registered with no actor"
        case .calledOnMainActor: "Broadcaster, calledOn: MainActor.shared"
        }
    }

    /// Registers from code isolated to no actor (`#isolation` is nil here).
    nonisolated func register(_ screen: IsolatedPostScreen, on broadcaster: Broadcaster) {
        switch self {
        case .withNoActor: broadcaster.addListener(screen)
        case .calledOnMainActor: broadcaster.addListener(screen, calledOn: MainActor.shared)
        }
    }
}

func isolatedConformanceHopScenario(options: Options) async -> [Row] {
    let n = 10
    let times = options.hopBroadcasts
    let post = Post(id: 1)
    var rows: [Row] = []
    for registration in IsolatedScreenRegistration.allCases {
        let broadcaster = Broadcaster()
        let screens = await MainActor.run { (0..<n).map { _ in IsolatedPostScreen() } }
        for screen in screens { registration.register(screen, on: broadcaster) }
        // The first background broadcast has the main actor settle the screens
        // registered with no actor; it is not measured.
        _ = await Task.detached { broadcaster.broadcast(to: (any PostListener).self) { $0.postCreated(post) } }.value
        await broadcaster.waitForScheduledDeliveries()
        var samples: [Double] = []
        var sendingSamples: [Double] = []
        for _ in 0..<options.hopRounds {
            let before = await MainActor.run { screens.reduce(0) { $0 + $1.received } }
            let (elapsed, sending) = await Task.detached {
                let start = now()
                for _ in 0..<times { broadcaster.broadcast(to: (any PostListener).self) { $0.postCreated(post) } }
                let sent = now()
                await broadcaster.waitForScheduledDeliveries()
                return (Double(now() - start), Double(sent - start))
            }.value
            samples.append(elapsed / Double(times))
            sendingSamples.append(sending / Double(times))
            let made = await MainActor.run { screens.reduce(0) { $0 + $1.received } } - before
            if made != times * n { print("warning: \(registration.name) delivered \(made) of \(times * n)") }
        }
        rows.append(
            Row(
                implementation: registration.name, scenario: "hop-isolated-conformance", n: n,
                nsPerBroadcast: median(samples), nsPerDelivery: median(samples) / Double(n), ratioToReference: nil,
                allocationsPerBroadcast: nil))
        // The broadcasting thread's share: the broadcasts alone, before the
        // barrier (steadier than the hand-off to the main actor).
        rows.append(
            Row(
                implementation: registration.name + ", broadcasting thread only",
                scenario: "hop-isolated-conformance-sending", n: n, nsPerBroadcast: median(sendingSamples),
                nsPerDelivery: median(sendingSamples) / Double(n), ratioToReference: nil,
                allocationsPerBroadcast: nil))
    }
    // Each row against the same measure of the calledOn: registration.
    for index in rows.indices {
        let reference = rows[rows.count - 2 + index % 2].nsPerBroadcast ?? 1
        rows[index].ratioToReference = (rows[index].nsPerBroadcast ?? 0) / reference
    }
    return rows
}

import BenchmarkKit
import CAllocCounter
import Dispatch
import Foundation

// Memory per pending scheduled delivery: while the main actor is busy,
// broadcasts made on another thread to listeners bound to the main actor
// (`calledOn:`) wait for it. What each waiting broadcast keeps allocated is what a
// burst of background broadcasts costs in memory until the main actor runs
// them.

/// What one pending broadcast keeps (its own JSON section, stable keys).
struct PendingDeliveryMemory: Codable {
    var listeners: Int
    var pendingBroadcasts: Int
    var retainedBytesPerPendingBroadcast: Double
    var allocatedBytesPerPendingBroadcast: Double
    var allocationsPerPendingBroadcast: Double
    enum CodingKeys: String, CodingKey {
        case listeners
        case pendingBroadcasts = "pending_broadcasts"
        case retainedBytesPerPendingBroadcast = "retained_bytes_per_pending_broadcast"
        case allocatedBytesPerPendingBroadcast = "allocated_bytes_per_pending_broadcast"
        case allocationsPerPendingBroadcast = "allocations_per_pending_broadcast"
    }
}

/// Bytes kept per pending broadcast, for 1 and 10 listeners.
///
/// Blocks the main thread (the main actor is busy) while another thread broadcasts `pendingBroadcasts` times with the
/// allocation counter on, then lets the main actor run the calls and checks
/// they all ran. Retained = usable bytes allocated minus freed while the
/// broadcasts were made, all threads counted (the main thread is blocked).
@MainActor
func pendingDeliveryScenario(options: Options) async -> [PendingDeliveryMemory] {
    var result: [PendingDeliveryMemory] = []
    for listenerCount in [1, 10] {
        let pending = PendingDeliveries(listenerCount: listenerCount)
        // The first broadcasts build what is built once (the protocol's
        // index, the main actor's queue); not counted.
        _ = whileMainActorIsBusy { pending.broadcastFromBackground(times: 16) }
        await pending.waitForScheduledDeliveries()
        let before = pending.delivered
        let times = options.pendingBroadcasts
        let stats = whileMainActorIsBusy { pending.broadcastFromBackground(times: times) }
        await pending.waitForScheduledDeliveries()
        let made = pending.delivered - before
        if made != times * listenerCount {
            print("warning: \(made) of \(times * listenerCount) scheduled calls ran before the barrier returned")
        }
        result.append(
            PendingDeliveryMemory(
                listeners: listenerCount, pendingBroadcasts: times,
                retainedBytesPerPendingBroadcast: Double(stats.liveBytesDelta) / Double(times),
                allocatedBytesPerPendingBroadcast: Double(stats.bytesAllocated) / Double(times),
                allocationsPerPendingBroadcast: Double(stats.allocations) / Double(times)))
    }
    return result
}

/// Runs `body` on a new thread, counting its allocations, while the main
/// thread waits for it: nothing scheduled on the main actor can run until
/// `body` has returned.
@MainActor
private func whileMainActorIsBusy(_ body: @escaping @Sendable () -> Void) -> cac_stats {
    let finished = DispatchSemaphore(value: 0)
    let counted = CountedStats()
    Thread {
        cac_start()
        body()
        counted.stats = cac_stop()
        finished.signal()
    }
    .start()
    finished.wait()
    return counted.stats
}

/// The counts, handed from the broadcasting thread to the main thread.
private final class CountedStats: @unchecked Sendable {
    // @unchecked Sendable: written by the broadcasting thread before it
    // signals the semaphore, read by the main thread after its wait returns.
    var stats = cac_stats()
}

/// Prints the rows.
func printPendingDeliveryMemory(_ rows: [PendingDeliveryMemory]) {
    print(
        "\n### Memory per pending scheduled delivery (`with:`, broadcast from another thread while the main actor "
            + "is busy)\n")
    print("| listeners | pending broadcasts | retained bytes per broadcast | allocated bytes | allocations |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for row in rows {
        print(
            "| \(row.listeners) | \(row.pendingBroadcasts) | \(format(row.retainedBytesPerPendingBroadcast)) "
                + "| \(format(row.allocatedBytesPerPendingBroadcast)) "
                + "| \(format(row.allocationsPerPendingBroadcast, digits: 2)) |")
    }
}

extension Options {
    /// Broadcasts kept pending at once.
    var pendingBroadcasts: Int { 1000 }
}

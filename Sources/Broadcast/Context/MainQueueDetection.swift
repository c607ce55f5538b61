import Dispatch

/// Tells whether the current code runs on the main queue, which is where the
/// main actor runs on every platform Broadcast supports.
///
/// `Thread.isMainThread` is not a reliable test on Linux (main-actor code can
/// run on the main queue from another thread, after `dispatchMain()`), and
/// the standard library has no non-trapping "am I on the main actor" query,
/// so the main queue is tagged with a queue-specific value and the tag is
/// read back.
enum MainQueueDetection {
    private static let key: Key = {
        let key = Key()
        DispatchQueue.main.setSpecific(key: key.key, value: 1)
        return key
    }()

    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: key.key) != nil
    }

    /// The queue-specific key, shareable across threads.
    private final class Key: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and is only ever passed to
        // Dispatch's `setSpecific` / `getSpecific`, which are thread-safe;
        // the box exists because not every Dispatch overlay declares
        // `DispatchSpecificKey` Sendable.
        let key = DispatchSpecificKey<UInt8>()
    }
}

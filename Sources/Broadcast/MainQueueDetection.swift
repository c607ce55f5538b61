import Dispatch

/// Tells whether the current code runs on the main queue, which is where the
/// main actor runs on every platform Broadcast supports.
///
/// `Thread.isMainThread` is not a reliable test on Linux (main-actor code can
/// run on the main queue from another thread), and the standard library has no
/// non-trapping "am I on the main actor" query, so the main queue is tagged
/// with a queue-specific value and the tag is read back.
enum MainQueueDetection {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }
}

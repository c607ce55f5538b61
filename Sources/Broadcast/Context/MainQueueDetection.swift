import Dispatch

/// Tells whether the current code runs on the main queue, which is where the
/// main actor runs on every platform Broadcast supports.
///
/// `Thread.isMainThread` is not a reliable test on Linux (main-actor code can
/// run on the main queue from another thread), and the standard library has no
/// non-trapping "am I on the main actor" query, so the main queue is tagged
/// with a queue-specific value and the tag is read back.
enum MainQueueDetection {
    private static let tag: Tag = {
        let tag = Tag()
        DispatchQueue.main.setSpecific(key: tag.key, value: 1)
        return tag
    }()

    static var isOnMainQueue: Bool {
        #if canImport(Darwin)
            DispatchQueue.getSpecific(key: tag.key) != nil
        #else
            // The C call the overlay's `getSpecific` makes, with the same key
            // (the key object's address): the generic wrapper around it (value
            // box, `Optional<UInt8>` witnesses, key retain and release) cost
            // more than the lookup itself, and only presence is asked here.
            dispatchGetSpecific(Unmanaged.passUnretained(tag.key).toOpaque()) != nil
        #endif
    }

    /// The queue-specific key, shareable across threads.
    private final class Tag: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and is only ever passed to
        // Dispatch's `setSpecific` / `getSpecific`, which are thread-safe;
        // the box exists because not every Dispatch overlay declares
        // `DispatchSpecificKey` Sendable.
        let key = DispatchSpecificKey<UInt8>()
    }
}

#if !canImport(Darwin)
    /// libdispatch's `dispatch_get_specific(const void *key)`.
    ///
    /// The Linux overlay marks it unavailable in favour of its generic
    /// wrapper. One pointer in, one out: the Swift and C conventions pass
    /// both the same way.
    @_silgen_name("dispatch_get_specific")
    private func dispatchGetSpecific(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?
#endif

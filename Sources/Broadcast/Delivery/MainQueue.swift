import Dispatch

// Whether code runs on the main queue, where the main actor runs, read from a
// tag: on Linux main-actor code can run off the main thread after
// `dispatchMain()`, and the standard library has no query that does not trap.
enum MainQueue {
    private static let key: Key = {
        let key = Key()
        DispatchQueue.main.setSpecific(key: key.key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key.key) != nil }

    private final class Key: @unchecked Sendable {
        // @unchecked Sendable: `key` is immutable and only passed to Dispatch's
        // thread-safe `setSpecific`/`getSpecific`; not every overlay declares it Sendable.
        let key = DispatchSpecificKey<UInt8>()
    }
}

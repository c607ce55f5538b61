import Synchronization

/// A reference stored at most once and read with no lock: what
/// `AtomicLazyReference` does, compiled in this module.
///
/// On this toolchain `AtomicLazyReference.load()` is an unspecialised call
/// into the Synchronization library, which looks up generic metadata on
/// every load (about 90 instructions per load, measured on a post's
/// delivery); this one is specialised where it is used.
struct StoredOnce<Instance: AnyObject>: ~Copyable {
    // Unmanaged: the slot owns one retain of the stored instance, taken when
    // it is stored and given back in `deinit`; a reader's `takeUnretainedValue`
    // is covered by it, as the reader holds the slot's owner.
    private let slot = Atomic<Unmanaged<Instance>?>(nil)

    init() {}

    func load() -> Instance? {
        slot.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Stores `instance` unless an instance is stored already; returns the
    /// one stored.
    func storeIfNil(_ instance: Instance) -> Instance {
        // Unmanaged: the retain the slot owns if the exchange succeeds; given back at once if it fails.
        let retained = Unmanaged.passRetained(instance)
        let (exchanged, stored) = slot.compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        guard !exchanged, let stored else { return instance }
        retained.release()
        return stored.takeUnretainedValue()
    }

    deinit {
        slot.load(ordering: .acquiring)?.release()
    }
}

// @unchecked Sendable: the slot is atomic, and a stored instance is Sendable.
extension StoredOnce: @unchecked Sendable where Instance: Sendable {}

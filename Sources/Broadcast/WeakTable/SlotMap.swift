/// Where each `addListener` entry sits in the table, by object: an
/// open-addressing hash table (linear probing) of slot numbers.
///
/// Why not a `Dictionary<ObjectIdentifier, Int>`: it stores each key beside
/// its value and hashes it with SipHash. Here a bucket holds only the slot
/// (4 bytes), because the entry at that slot already holds the identity it is
/// looked up by; and an object's address needs no keyed hash (it is not
/// chosen by an adversary), so one multiplication spreads it. Per
/// registration at 1,000 listeners: 8 bytes instead of 33, and an add hashes
/// once instead of three times (callgrind, Docs/PerformanceNotes.md).
///
/// Every method takes the table's `entries`: each mapped slot must hold an
/// entry (remove a slot from the map before clearing it).
struct SlotMap {
    /// `slot + 1`, or 0 for an empty bucket.
    ///
    /// A power of two in size.
    private var buckets: [Int32] = []
    private var count = 0

    /// The slot of the entry whose identity is `object`, if mapped.
    func slot(of object: ObjectIdentifier, in entries: [ListenerEntry?]) -> Int? {
        bucket(of: object, in: entries).map { Int(buckets[$0]) - 1 }
    }

    /// The bucket that maps `object`, if mapped (linear probing from its
    /// home bucket until an empty one).
    private func bucket(of object: ObjectIdentifier, in entries: [ListenerEntry?]) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var bucket = home(of: object)
        while true {
            let stored = Int(buckets[bucket])
            if stored == 0 { return nil }
            if entries[stored - 1].unsafelyUnwrapped.id == object { return bucket }
            bucket = (bucket + 1) & mask
        }
    }

    /// The slot of the entry whose identity is `object`, if mapped; if not,
    /// maps `newSlot` to it (the caller then stores the entry there).
    ///
    /// One probe for the common add, where a lookup and an insertion made two.
    mutating func slot(of object: ObjectIdentifier, orInsert newSlot: Int, in entries: [ListenerEntry?]) -> Int? {
        if (count + 1) * 4 > buckets.count * 3 { grow(in: entries) }
        let home = home(of: object)
        // Unchecked indexing: buckets are masked, and a bucket holds a slot
        // of `entries` (the map's invariant).
        let found = buckets.withUnsafeMutableBufferPointer { buckets in
            entries.withUnsafeBufferPointer { entries -> Int? in
                let mask = buckets.count - 1
                var bucket = home
                while true {
                    let stored = Int(buckets[bucket])
                    if stored == 0 { break }
                    if entries[stored - 1].unsafelyUnwrapped.id == object { return stored - 1 }
                    bucket = (bucket + 1) & mask
                }
                buckets[bucket] = Int32(truncatingIfNeeded: newSlot + 1)
                return nil
            }
        }
        if found == nil { count += 1 }
        return found
    }

    /// Maps the entry at `slot`, whose identity must not be mapped yet.
    mutating func insert(_ slot: Int, in entries: [ListenerEntry?]) {
        // At most three quarters full, so probes stay short.
        if (count + 1) * 4 > buckets.count * 3 { grow(in: entries) }
        place(slot, id: entries[slot].unsafelyUnwrapped.id)
        count += 1
    }

    /// Unmaps `object`; returns the slot it had.
    @discardableResult
    mutating func remove(_ object: ObjectIdentifier, in entries: [ListenerEntry?]) -> Int? {
        guard let bucket = bucket(of: object, in: entries) else { return nil }
        let mask = buckets.count - 1
        let removed = Int(buckets[bucket]) - 1
        buckets[bucket] = 0
        count -= 1
        // Backward shift: move later members of the probe run into the hole
        // when their home is not after it, so no lookup stops early.
        var hole = bucket
        var next = (bucket + 1) & mask
        while buckets[next] != 0 {
            let home = home(of: entries[Int(buckets[next]) - 1].unsafelyUnwrapped.id)
            // Whether `home` lies cyclically in (hole, next]: then it stays.
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                buckets[hole] = buckets[next]
                buckets[next] = 0
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Forgets every slot, keeping the buckets' memory.
    mutating func removeAll() {
        for index in buckets.indices { buckets[index] = 0 }
        count = 0
    }

    private func home(of object: ObjectIdentifier) -> Int {
        // Fibonacci hashing: the top bits of the product depend on every bit
        // of the address.
        let product = UInt(bitPattern: object) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: product >> UInt(UInt.bitWidth - buckets.count.trailingZeroBitCount))
    }

    /// Puts `slot` in the first empty bucket of `id`'s probe run.
    private mutating func place(_ slot: Int, id: ObjectIdentifier) {
        let mask = buckets.count - 1
        var bucket = home(of: id)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(truncatingIfNeeded: slot + 1)
    }

    private mutating func grow(in entries: [ListenerEntry?]) {
        let old = buckets
        buckets = Array(repeating: 0, count: Swift.max(16, old.count * 2))
        for stored in old where stored != 0 {
            place(Int(stored) - 1, id: entries[Int(stored) - 1].unsafelyUnwrapped.id)
        }
    }
}

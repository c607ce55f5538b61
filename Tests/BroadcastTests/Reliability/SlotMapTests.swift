import Testing

@testable import Broadcast

/// The weak table's key-less slot map: every mapped object is found at its
/// slot, and nothing else is found, whatever the order of insertions and
/// removals (removal shifts later members of a probe run back, so a lookup
/// must never stop early at a hole it left).
@Suite("Slot map")
struct SlotMapTests {
    @Test func findsEveryMappedObjectAfterRemovalsInAnyOrder() {
        let objects = (0..<600).map { _ in SlotMapObject() }
        let entries: [ListenerEntry?] = objects.map {
            ListenerEntry(object: $0, isolation: nil, onlyProtocol: nil)
        }
        var map = SlotMap()
        for slot in entries.indices { map.insert(slot, in: entries) }

        // A fixed permutation (multiplication by a unit modulo 600).
        let order = entries.indices.map { ($0 * 577) % entries.count }
        var removed = Set<Int>()
        for (step, slot) in order.enumerated() {
            #expect(map.remove(entries[slot]!.id, in: entries) == slot)
            removed.insert(slot)
            if step % 50 == 0 || step > order.count - 10 {
                for other in entries.indices {
                    let found = map.slot(of: entries[other]!.id, in: entries)
                    #expect(found == (removed.contains(other) ? nil : other))
                }
            }
        }
        withExtendedLifetime(objects) {}
    }

    @Test func removingAnUnmappedObjectChangesNothing() {
        let objects = (0..<40).map { _ in SlotMapObject() }
        let entries: [ListenerEntry?] = objects.map {
            ListenerEntry(object: $0, isolation: nil, onlyProtocol: nil)
        }
        var map = SlotMap()
        for slot in entries.indices where slot % 2 == 0 { map.insert(slot, in: entries) }
        for slot in entries.indices where slot % 2 == 1 {
            #expect(map.remove(entries[slot]!.id, in: entries) == nil)
        }
        for slot in entries.indices {
            #expect(map.slot(of: entries[slot]!.id, in: entries) == (slot % 2 == 0 ? slot : nil))
        }
        withExtendedLifetime(objects) {}
    }
}

private final class SlotMapObject {}

import Foundation
import Testing

@testable import Broadcast

/// Whether this process runs under ThreadSanitizer or AddressSanitizer, whose
/// allocators do not promptly hand a freed block back (measured under TSan: no
/// reuse in 200,000 allocations; ASan quarantines freed memory on purpose), so
/// an address-reuse test cannot set itself up there.
///
/// The plain test run covers
/// those tests.
let runsUnderAllocatorSanitizer: Bool = {
    #if canImport(Darwin)
        let defaultHandle = UnsafeMutableRawPointer(bitPattern: -2)
    #else
        let defaultHandle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(defaultHandle, "__tsan_init") != nil || dlsym(defaultHandle, "__asan_init") != nil
}()

/// Semantic 2 — Identity: one registration per object (`===`), robust to
/// address reuse after deallocation.
@Suite("Identity")
struct IdentityTests {
    @Test func addingTwiceDeliversOnceAndKeepsPosition() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let a = PingSpy("a", log: log)
        let b = PingSpy("b", log: log)
        #expect(broadcaster.addListener(a))
        #expect(broadcaster.addListener(b))
        #expect(broadcaster.addListener(a))  // still registered: true, nothing changes

        #expect(broadcaster.ping(1) == 2)
        #expect(log.all == ["a:1", "b:1"])
        #expect(broadcaster.registrationCount == 2)

        // Also once the per-protocol index exists.
        broadcaster.addListener(a)
        broadcaster.ping(2)
        #expect(log.all == ["a:1", "b:1", "a:2", "b:2"])
        withExtendedLifetime((a, b)) {}
    }

    @Test func removingAnUnknownObjectIsANoOp() {
        let broadcaster = Broadcaster()
        let log = EventLog()
        let a = PingSpy("a", log: log)
        let stranger = PingSpy("stranger", log: log)
        broadcaster.addListener(a)
        broadcaster.removeListener(stranger)
        broadcaster.ping(1)
        broadcaster.removeListener(a)
        broadcaster.removeListener(a)  // twice: still a no-op
        broadcaster.removeListener(stranger)
        broadcaster.ping(2)
        #expect(log.all == ["a:1"])
        #expect(broadcaster.registrationCount == 0)
    }

    /// Fresh scenarios each reuse test tries before it gives up.
    private static let reuseAttempts = 5

    /// Allocates `PingSpy`s until one lands at `address`; keeps the misses
    /// alive so the allocator must eventually hand out the freed block.
    private static func spy(reusing address: ObjectIdentifier, log: EventLog) -> PingSpy? {
        var misses: [PingSpy] = []
        for attempt in 0..<50_000 {
            let candidate = PingSpy("new", log: log)
            if ObjectIdentifier(candidate) == address { return candidate }
            if attempt.isMultiple(of: 2) { misses.append(candidate) }
        }
        return nil
    }

    @Test(.disabled(if: runsUnderAllocatorSanitizer, "sanitizer allocators do not reuse addresses promptly"))
    func newObjectAtAReusedAddressIsANewListener() {
        // Each attempt starts afresh: the allocator usually hands the freed
        // block back at once, but other tests allocating on other threads at
        // the same moment can take it first.
        for _ in 0..<Self.reuseAttempts {
            let broadcaster = Broadcaster()
            let log = EventLog()
            var old: PingSpy? = PingSpy("old", log: log)
            let address = ObjectIdentifier(old!)
            broadcaster.addListener(old!)
            broadcaster.ping(0)  // builds the index with the old entry
            old = nil

            guard let reused = Self.spy(reusing: address, log: log) else { continue }
            // Not registered just because it sits where a listener used to be.
            #expect(broadcaster.ping(1) == 0)
            #expect(broadcaster.registrationCount == 0)

            #expect(broadcaster.addListener(reused))
            #expect(broadcaster.registrationCount == 1)
            #expect(broadcaster.ping(2) == 1)
            #expect(log.all == ["old:0", "new:2"])

            broadcaster.removeListener(reused)
            #expect(broadcaster.ping(3) == 0)
            #expect(log.all == ["old:0", "new:2"])
            return
        }
        Issue.record("the allocator never reused a released listener's address in \(Self.reuseAttempts) attempts")
    }

    @Test(.disabled(if: runsUnderAllocatorSanitizer, "sanitizer allocators do not reuse addresses promptly"))
    func tableReplacesTheDeadEntryAtAReusedAddress() {
        for _ in 0..<Self.reuseAttempts {
            var table = ListenerTable()
            let log = EventLog()
            var old: PingSpy? = PingSpy("old", log: log)
            let address = ObjectIdentifier(old!)
            _ = table.add(ListenerEntry(object: old!, isolation: nil, onlyProtocol: nil))
            old = nil
            guard let reused = Self.spy(reusing: address, log: log) else { continue }

            let added = table.add(ListenerEntry(object: reused, isolation: nil, onlyProtocol: nil))
            #expect(added, "a new object at a reused address was taken for the dead one")
            #expect(table.liveEntries.count == 1)
            #expect(table.liveEntries.first?.object === reused)
            let addedAgain = table.add(ListenerEntry(object: reused, isolation: nil, onlyProtocol: nil))
            #expect(!addedAgain, "the live object was registered twice")
            return
        }
        Issue.record("the allocator never reused a released listener's address in \(Self.reuseAttempts) attempts")
    }
}

import Testing

@testable import BroadcastPostgresRelay

/// A receiver's account of each sender's numbers: what it takes, skips,
/// waits for, and reports lost.
@Suite struct ReceivedNumbersTests {
    @Test func liveNumbersAreTakenInTurnAndADuplicateIsSkipped() {
        var numbers = ReceivedNumbers()
        numbers.start(at: ["a": 4])
        #expect(numbers.takeLive(5, from: "a") == .next)
        #expect(numbers.takeLive(5, from: "a") == .duplicate)
        #expect(numbers.takeLive(3, from: "a") == .duplicate)
        #expect(numbers.takeLive(6, from: "a") == .next)
        // A sender first heard from live starts the account where it is.
        #expect(numbers.takeLive(9, from: "b") == .next)
        #expect(numbers.latest == ["a": 6, "b": 9])
    }

    @Test func aNumberAfterMissingOnesIsHeldUntilTheyAreReadOrReportedLost() {
        var numbers = ReceivedNumbers()
        numbers.start(at: ["a": 1])
        #expect(numbers.takeLive(5, from: "a") == .missed(2...4))
        // Not taken: asked again, it is still after missing numbers.
        #expect(numbers.takeLive(5, from: "a") == .missed(2...4))
        // 2 and 3 read back; 4 is not in the table.
        #expect(numbers.takeRecovered(2, from: "a") == .some(nil))
        #expect(numbers.takeRecovered(3, from: "a") == .some(nil))
        #expect(numbers.closeMissed(2...4, from: "a") == 4...4)
        #expect(numbers.takeLive(5, from: "a") == .next)
    }

    @Test func rowsReadBackSkipWhatWasTakenAndNameWhatNoRowFills() {
        var numbers = ReceivedNumbers()
        numbers.start(at: ["a": 10])
        #expect(numbers.takeRecovered(9, from: "a") == nil)
        #expect(numbers.takeRecovered(10, from: "a") == nil)
        #expect(numbers.takeRecovered(11, from: "a") == .some(nil))
        // 12...14 were deleted from the table before this relay read it.
        #expect(numbers.takeRecovered(15, from: "a") == .some(12...14))
        // A sender first seen in the table started while this relay was away:
        // counted from 1.
        #expect(numbers.takeRecovered(3, from: "c") == .some(1...2))
        // Everything missed was read back: nothing more is lost.
        #expect(numbers.closeMissed(12...15, from: "a") == nil)
        #expect(numbers.latest == ["a": 15, "c": 3])
    }

    @Test func theAccountStartsOnlyWhenTheRelayFirstListens() {
        var numbers = ReceivedNumbers()
        #expect(!numbers.isStarted)
        numbers.start(at: [:])
        #expect(numbers.isStarted)
    }

    /// A notification that names its envelope in the table takes nothing:
    /// the numbers up to it are read, then taken as rows.
    @Test func aStoredEnvelopeIsReadWithTheNumbersMissedBeforeIt() {
        var numbers = ReceivedNumbers()
        numbers.start(at: ["a": 4])
        #expect(numbers.unreadThrough(5, from: "a") == 5...5)
        #expect(numbers.unreadThrough(7, from: "a") == 5...7)
        #expect(numbers.unreadThrough(4, from: "a") == nil)
        #expect(numbers.latest == ["a": 4])
        // A sender first heard from is counted from its number.
        #expect(numbers.unreadThrough(9, from: "b") == 9...9)
        #expect(numbers.takeRecovered(9, from: "b") == .some(nil))
        #expect(numbers.latest == ["a": 4, "b": 9])
    }
}

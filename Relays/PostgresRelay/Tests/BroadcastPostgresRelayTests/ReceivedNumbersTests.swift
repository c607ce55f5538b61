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
        // A sender first heard from live at 1 starts the account there.
        #expect(numbers.takeLive(1, from: "c") == .next)
        #expect(numbers.latest == ["a": 6, "c": 1])
    }

    /// The numbers a sender's mark counts beyond those taken are unwritten.
    ///
    /// They were notified while the relay did not listen; those its mark
    /// counted when the account started are not the relay's to wait for. A
    /// sender marked since, never heard from, is counted from 1.
    @Test func theNumbersAMarkCountsBeyondThoseTakenAreUnwrittenFromTheAccountsStart() {
        var numbers = ReceivedNumbers()
        numbers.start(at: ["a": 4, "b": 10, "c": 3], marked: ["a": 6, "b": 10, "old": 8])
        #expect(numbers.unwritten(marked: ["a": 6, "b": 10, "c": 3, "old": 8]).isEmpty)
        #expect(numbers.takeLive(11, from: "b") == .next)
        let unwritten = numbers.unwritten(marked: ["a": 9, "b": 14, "c": 5, "new": 5, "old": 8])
        #expect(unwritten.map(\.sender) == ["a", "b", "c", "new"])
        #expect(unwritten.map(\.numbers) == [7...9, 12...14, 4...5, 1...5])
    }

    /// A sender first heard from live above 1 sent its earlier numbers
    /// while this relay did not listen: nothing is taken until the table was
    /// read, and the account starts at the first row it keeps.
    @Test func aSenderFirstHeardFromLiveAboveOneWaitsForTheTable() {
        var numbers = ReceivedNumbers()
        // Before the account starts (the relay's first listen), the number
        // heard is where its sender's account starts.
        #expect(numbers.takeLive(9, from: "early") == .next)
        numbers.start(at: [:])
        #expect(numbers.takeLive(9, from: "b") == .firstHeard(1...8))
        #expect(numbers.takeLive(9, from: "b") == .firstHeard(1...8))
        // The table keeps 6 and 8 (7 never written): the numbers before 6
        // are not reported, 7 is.
        numbers.startFirstHeard("b", before: 6)
        #expect(numbers.takeRecovered(6, from: "b") == .some(nil))
        #expect(numbers.takeRecovered(8, from: "b") == .some(7...7))
        #expect(numbers.closeMissed(1...8, from: "b") == nil)
        #expect(numbers.takeLive(9, from: "b") == .next)
        // No row kept: the account starts after the numbers read for.
        #expect(numbers.takeLive(4, from: "d") == .firstHeard(1...3))
        numbers.startFirstHeard("d", before: 4)
        #expect(numbers.closeMissed(1...3, from: "d") == nil)
        #expect(numbers.takeLive(4, from: "d") == .next)
        #expect(numbers.latest == ["early": 9, "b": 9, "d": 4])
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
        #expect(numbers.unreadThrough(5, from: "a").map { $0.numbers } == 5...5)
        #expect(numbers.unreadThrough(7, from: "a").map { $0.numbers } == 5...7)
        #expect(numbers.unreadThrough(4, from: "a") == nil)
        #expect(numbers.latest == ["a": 4])
        // A sender first heard from since the account started is read from
        // 1, and its account starts at the first row the table keeps.
        let first = numbers.unreadThrough(9, from: "b")
        #expect(first.map { $0.numbers } == 1...9 && first?.isFirstHeard == true)
        numbers.startFirstHeard("b", before: 9)
        #expect(numbers.takeRecovered(9, from: "b") == .some(nil))
        #expect(numbers.latest == ["a": 4, "b": 9])
    }
}

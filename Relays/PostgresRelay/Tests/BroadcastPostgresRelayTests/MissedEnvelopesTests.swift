import Testing

@testable import BroadcastPostgresRelay

/// The numbers a sender's mark counts, less those received live meanwhile:
/// a sender notifies in order, so from the first of its numbers received,
/// every later one was received too.
struct MissedEnvelopesTests {
    let missed = MissedEnvelopes(sender: "a", numbers: 4...9, payload: nil)

    func payload(_ number: Int, from sender: String) -> String {
        RowWaitTests.envelope(number, from: sender)
    }

    @Test func numbersFromTheFirstReceivedLiveOnAreNotMissed() {
        let left = missed.notReceived(in: [payload(3, from: "b"), payload(7, from: "a"), payload(8, from: "a")])
        #expect(left?.numbers == 4...6)
        #expect(left?.sender == "a")
    }

    @Test func allAreReceivedWhenTheFirstLiveIsTheFirstMissed() {
        #expect(missed.notReceived(in: [payload(4, from: "a")]) == nil)
    }

    @Test func noneIsReceivedByNotificationsOfOtherSendersOrLaterNumbers() {
        let left = missed.notReceived(in: [payload(5, from: "b"), payload(10, from: "a"), "not an envelope"])
        #expect(left?.numbers == 4...9)
    }
}

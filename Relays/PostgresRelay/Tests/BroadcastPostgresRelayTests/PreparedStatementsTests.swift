import Testing

@testable import BroadcastPostgresRelay

/// The statements prepared on each connection are those the relay would
/// send otherwise, word for word, and the notifications' one is used for
/// batches of notifications alone only.
struct PreparedStatementsTests {
    func notification(number: UInt64, keepsState: Bool = false, reference: String? = nil) -> OutgoingNotification {
        OutgoingNotification(
            channel: "chat", payload: "{\"n\":\(number)}", reference: reference, typeName: "Chat",
            keepsState: keepsState, number: number)
    }

    @Test func thePreparedStatementIsTheOneSentForNotificationsAlone() {
        let batch = [notification(number: 1), notification(number: 2)]
        #expect(EventLog.send(batch, writing: [], sender: "sender").sql == EventLog.notifications)
        #expect(EventLog.notificationValues(of: batch, writing: [])?.count == 2)
    }

    @Test func aBatchThatWritesRowsOrKeepsAStateIsNotSentByThePreparedStatement() {
        let batch = [notification(number: 2)]
        #expect(EventLog.notificationValues(of: batch, writing: [notification(number: 1)]) == nil)
        #expect(EventLog.notificationValues(of: [notification(number: 1, keepsState: true)], writing: []) == nil)
        #expect(EventLog.notificationValues(of: [notification(number: 1, reference: "{}")], writing: []) == nil)
    }

    @Test func thePreparedRowStatementIsTheOneWrittenOtherwise() {
        let rows = [notification(number: 1), notification(number: 2)]
        #expect(EventLog.write(rows, sender: "sender").sql == EventLog.writing)
        #expect(EventLog.writingValues(of: rows, sender: "sender").count == 4)
    }
}

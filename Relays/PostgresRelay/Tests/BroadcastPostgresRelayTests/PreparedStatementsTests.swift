import Testing

@testable import BroadcastPostgresRelay

/// The statements prepared on each connection are those the relay sends
/// unprepared, with the same values, and the notifications' one is used for
/// batches of notifications alone only.
struct PreparedStatementsTests {
    func notification(number: UInt64, keepsState: Bool = false, reference: String? = nil) -> OutgoingNotification {
        OutgoingNotification(
            channel: "chat", payload: "{\"n\":\(number)}", reference: reference, typeName: "Chat",
            keepsState: keepsState, number: number)
    }

    @Test func thePreparedStatementIsTheOneSentForNotificationsAlone() {
        let batch = [notification(number: 1), notification(number: 2)]
        let marks = ["chat": "broadcast_relay_mark_0"]
        let query = EventLog.send(batch, writing: [], sender: "sender", marks: marks)
        #expect(query.sql == EventLog.notifications)
        #expect(query.binds.count == 4)
        #expect(EventLog.notificationValues(of: batch, writing: [], marks: marks)?.count == 4)
    }

    @Test func aBatchThatWritesRowsOrKeepsAStateIsNotSentByThePreparedStatement() {
        let batch = [notification(number: 2)]
        #expect(EventLog.notificationValues(of: batch, writing: [notification(number: 1)], marks: [:]) == nil)
        #expect(
            EventLog.notificationValues(of: [notification(number: 1, keepsState: true)], writing: [], marks: [:]) == nil
        )
        #expect(
            EventLog.notificationValues(of: [notification(number: 1, reference: "{}")], writing: [], marks: [:]) == nil)
    }

    @Test func thePreparedRowStatementIsTheOneWrittenOtherwise() {
        let rows = [notification(number: 1), notification(number: 2)]
        let query = EventLog.write(rows, sender: "sender")
        #expect(query.sql == EventLog.writing)
        #expect(query.binds.count == 4)
        #expect(EventLog.writingValues(of: rows, sender: "sender").count == 4)
    }
}

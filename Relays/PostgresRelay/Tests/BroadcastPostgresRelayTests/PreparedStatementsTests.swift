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

    @Test func thePreparedStatementIsTheOneSentForNotificationsAlone() throws {
        let batch = [notification(number: 1), notification(number: 2)]
        let marks = ["chat": "broadcast_relay_mark_0"]
        let query = EventLog.send(batch, writing: [], sender: "sender", marks: marks)
        #expect(query.sql == EventLog.notifications)
        #expect(query.binds.count == 4)
        let sending = try #require(NotificationStatement.sending(batch, writing: [], marks: marks))
        #expect(sending.statement == .several && sending.values.count == 4)
    }

    @Test func aBatchOfOneIsSentByTheStatementWithoutArrays() throws {
        let batch = [notification(number: 7)]
        let marks = ["chat": "broadcast_relay_mark_0"]
        let query = EventLog.send(batch, writing: [], sender: "sender", marks: marks)
        #expect(query.sql == EventLog.notification)
        #expect(query.binds.count == 4)
        let sending = try #require(NotificationStatement.sending(batch, writing: [], marks: marks))
        #expect(sending.statement == .one)
        #expect(
            sending.values.map { $0.string ?? $0.int64.map(String.init) } == [
                "chat", "{\"n\":7}", "broadcast_relay_mark_0", "7",
            ])
    }

    @Test func aBatchThatWritesRowsOrKeepsAStateIsNotSentByThePreparedStatement() {
        let batch = [notification(number: 2)]
        #expect(NotificationStatement.sending(batch, writing: [notification(number: 1)], marks: [:]) == nil)
        #expect(
            NotificationStatement.sending([notification(number: 1, keepsState: true)], writing: [], marks: [:]) == nil)
        #expect(
            NotificationStatement.sending([notification(number: 1, reference: "{}")], writing: [], marks: [:]) == nil)
    }

    @Test func thePreparedRowStatementIsTheOneWrittenOtherwise() {
        let rows = [notification(number: 1), notification(number: 2)]
        let query = EventLog.write(rows, sender: "sender")
        #expect(query.sql == EventLog.writing)
        #expect(query.binds.count == 4)
        #expect(EventLog.writingValues(of: rows, sender: "sender").count == 4)
    }
}

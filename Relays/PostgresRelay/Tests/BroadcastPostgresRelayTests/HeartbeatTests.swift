import Testing

@testable import BroadcastPostgresRelay

/// A heartbeat's payload, and the turn a route's receiving tasks take: what
/// lets a receiver read rows its sender wrote after it listened again.
@Suite struct HeartbeatTests {
    @Test func aHeartbeatCarriesItsInstanceAndTheNumbersItsRowsAreWrittenTo() {
        let heartbeat = Heartbeat(instanceID: "9f86d081884c7d65", writtenNumbers: ["chat": 42, "a \"b\"": 7])
        #expect(heartbeat.payload == #"9f86d081884c7d65 {"a \"b\"":7,"chat":42}"#)
        #expect(Heartbeat(reading: heartbeat.payload) == heartbeat)
        // Nothing written yet: the identifier alone, as relays sent it before.
        let bare = Heartbeat(instanceID: "9f86d081884c7d65", writtenNumbers: [:])
        #expect(bare.payload == "9f86d081884c7d65")
        #expect(Heartbeat(reading: "9f86d081884c7d65") == bare)
        #expect(Heartbeat(reading: "9f86d081884c7d65 {not json") == bare)
    }

    /// A payload that arrives while the other task has the turn is left to
    /// it, in order, before it ends the turn.
    @Test func payloadsLeftWhileTheTurnIsTakenGoToItsHolder() {
        let turn = ReceivingTurn()
        #expect(turn.take(orLeave: "1"))
        #expect(!turn.take(orLeave: "2"))
        #expect(!turn.take(orLeave: nil))
        #expect(!turn.take(orLeave: "3"))
        #expect(turn.end() == ["2", "3"])
        #expect(!turn.take(orLeave: "4"))
        #expect(turn.end() == ["4"])
        #expect(turn.end() == [])
        #expect(turn.take(orLeave: nil))
    }
}

import Testing

@testable import Broadcast

private protocol Settled: AnyObject {}

private final class Unsettled: Sendable {}

/// The main actor is asked once per listener and protocol, however many
/// broadcasts made elsewhere meet the listener before it answers: a program
/// whose main actor never runs keeps one question per listener and
/// protocol, nothing per broadcast.
@Suite("Settlement questions asked once")
struct SettlementClaimTests {
    @Test func aListenerIsAskedAboutOnceUntilTheAnswer() {
        var storage = BroadcasterStorage()
        let listener = Unsettled()
        let entry = ListenerEntry(object: listener, isolation: nil, onlyProtocol: nil, conformanceMayBeIsolated: true)
        let protocolID = ObjectIdentifier((any Settled).self)
        let otherID = ObjectIdentifier((any Sendable).self)

        #expect(storage.claimSettlements(of: [entry], for: protocolID).count == 1)
        #expect(storage.claimSettlements(of: [entry, entry], for: protocolID).isEmpty, "asked already")
        #expect(storage.claimSettlements(of: [entry], for: otherID).count == 1, "another protocol's question")
        storage.endSettlements(of: [entry], for: protocolID)
        #expect(storage.claimSettlements(of: [entry], for: protocolID).count == 1, "answered: asked again if met")
        withExtendedLifetime(listener) {}
    }
}

import Broadcast
import Foundation
import Testing

/// The rules of where a listener runs, one test each: what
/// `deliveryExplanation(for:to:)` names, and the broadcast from the same
/// place doing what it says.
@Suite("Where a listener runs: the rule each explanation names", .timeLimit(.minutes(1)))
struct DeliveryRuleTests {
    @Test func aListenerRegisteredWithNoActorIsCalledWhereTheBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        broadcaster.addListener(listener)
        let (explanation, calledHere) = await onNewThread {
            let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
            record.broadcasting { _ = broadcaster.ping(1) }
            return (explanation, record.calls(of: 1).map(\.duringBroadcastOnThisThread))
        }
        #expect(explanation == .calledHere)
        #expect(
            explanation.description.hasSuffix("it registered with no actor, so it is called where the broadcast runs"))
        #expect(calledHere == [true])
    }

    @Test func aSendableListenerRegisteredOnTheMainActorIsCalledWhereTheBroadcastRuns() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        await MainActor.run { _ = broadcaster.addListener(listener) }
        let (explanation, calledHere) = await onNewThread {
            let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
            record.broadcasting { _ = broadcaster.ping(1) }
            return (explanation, record.calls(of: 1).map(\.duringBroadcastOnThisThread))
        }
        #expect(explanation == .calledHere)
        #expect(explanation.description.hasSuffix("a Sendable listener is called where the broadcast runs"))
        #expect(calledHere == [true])
    }

    @Test func aListenerCalledOnAnActorIsScheduledThereFromElsewhere() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        await MainActor.run { _ = broadcaster.addListener(listener, calledOn: MainActor.shared) }
        let (explanation, calledHere) = await onNewThread {
            let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
            record.broadcasting { _ = broadcaster.ping(1) }
            return (explanation, record.calls(of: 1).map(\.duringBroadcastOnThisThread))
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(explanation == .scheduled(on: MainActor.shared))
        #expect(explanation.description.hasSuffix("it is bound to that actor (calledOn:), so every call runs there"))
        #expect(calledHere == [])
        #expect(record.calls(of: 1).map(\.onMainQueue) == [true])
    }

    @Test func aListenerCalledOnAnActorIsCalledHereWhenTheBroadcastRunsThere() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let listener = PlainPinger(id: 1, record: record)
        let (explanation, calledHere) = await MainActor.run {
            broadcaster.addListener(listener, calledOn: MainActor.shared)
            let explanation = broadcaster.deliveryExplanation(for: listener, to: Ping.self)
            record.broadcasting { _ = broadcaster.ping(1) }
            return (explanation, record.calls(of: 1).map(\.duringBroadcastOnThisThread))
        }
        #expect(explanation == .calledHere)
        #expect(explanation.description.hasSuffix("the broadcast runs on the actor its calls run on"))
        #expect(calledHere == [true])
    }

    @Test func aConformanceIsolatedToTheMainActorSendsTheCallThere() async {
        let broadcaster = Broadcaster()
        let record = CallRecord()
        let screen = await MainActor.run {
            let screen = IsolatedPinger(id: 1, record: record)
            broadcaster.addListener(screen)
            return screen
        }
        let (explanation, calledHere) = await onNewThread {
            let explanation = broadcaster.deliveryExplanation(for: screen, to: Ping.self)
            record.broadcasting { _ = broadcaster.ping(1) }
            return (explanation, record.calls(of: 1).map(\.duringBroadcastOnThisThread))
        }
        await broadcaster.waitForScheduledDeliveries()
        #expect(explanation == .scheduledIfConforming(on: MainActor.shared))
        #expect(
            explanation.description.hasSuffix("its conformance can be used only on that actor, where it registered"))
        #expect(calledHere == [])
        #expect(record.calls(of: 1).map(\.onMainQueue) == [true])
    }
}
